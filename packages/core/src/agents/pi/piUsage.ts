import type { UsageValue } from '../../trace/TraceEntry';
import { isObject } from '../../json';

const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/**
 * The session's usage as Pi reports it per assistant message (`usage`: input, output, cacheRead,
 * cacheWrite, totalTokens, cost.total in USD), summed. Input tokens count cached ones too (Pi splits
 * them out; the provider's prompt size is their sum). A message whose usage is absent or all zero
 * adds nothing: Pi writes zeros when the provider reported no usage.
 */
export class PiUsage {
  private input = 0;
  private output = 0;
  private total = 0;
  private cost = 0;
  private reported = false;

  /** Adds one assistant message's usage; true when it reported any. */
  add(usage: unknown): boolean {
    if (!isObject(usage)) return false;
    const input = num(usage.input) + num(usage.cacheRead) + num(usage.cacheWrite);
    const output = num(usage.output);
    const total = num(usage.totalTokens) || input + output;
    if (input === 0 && output === 0 && total === 0) return false;
    this.input += input;
    this.output += output;
    this.total += total;
    this.cost += isObject(usage.cost) ? num(usage.cost.total) : 0;
    this.reported = true;
    return true;
  }

  /** The cumulative usage, or undefined before any message reported one. */
  get value(): Partial<UsageValue> | undefined {
    if (!this.reported) return undefined;
    return {
      inputTokens: this.input,
      outputTokens: this.output,
      totalTokens: this.total,
      cost: this.cost,
      currency: 'USD',
    };
  }
}
