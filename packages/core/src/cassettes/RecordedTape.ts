import type { CassetteExchange, CassetteRequest, CassetteResponse } from './CassetteFormat';
import type { CassetteMode } from './CassetteMode';
import type { CassetteTape } from './CassetteScope';
import { cassetteRequestKey } from './cassetteRequestKey';
import { diffDistance, lineDiff, requestLines } from './lineDiff';

/**
 * One channel's exchanges inside one test attempt (contract §24): what the cassette file had, a map
 * from normalized request to their positions, and what this attempt recorded live. The n-th
 * identical request takes the n-th recorded answer.
 */
export class RecordedTape implements CassetteTape {
  readonly mode: CassetteMode;
  private readonly recorded: readonly CassetteExchange[];
  /** Normalized request key → positions in `recorded`, in order. */
  private readonly positions = new Map<string, number[]>();
  /** Normalized request key → how many of its positions were taken. */
  private readonly taken = new Map<string, number>();
  private readonly used: boolean[];
  private readonly fresh: CassetteExchange[] = [];
  private requestCount = 0;
  private replayedCount = 0;

  /** `recorded`: the channel's exchanges in the cassette file (empty when it had none). */
  constructor(mode: CassetteMode, recorded: readonly CassetteExchange[]) {
    this.mode = mode;
    this.recorded = recorded;
    this.used = recorded.map(() => false);
    recorded.forEach((exchange, index) => {
      const key = cassetteRequestKey(exchange.request);
      const list = this.positions.get(key);
      if (list) list.push(index);
      else this.positions.set(key, [index]);
    });
  }

  take(request: CassetteRequest): CassetteResponse | null {
    this.requestCount += 1;
    if (this.mode !== 'auto' && this.mode !== 'replay') return null;
    const key = cassetteRequestKey(request);
    const list = this.positions.get(key);
    const n = this.taken.get(key) ?? 0;
    if (list === undefined || n >= list.length) return null;
    this.taken.set(key, n + 1);
    const index = list[n]!;
    this.used[index] = true;
    this.replayedCount += 1;
    return this.recorded[index]!.response;
  }

  record(exchange: CassetteExchange): void {
    if (this.mode === 'auto' || this.mode === 'record') this.fresh.push(exchange);
  }

  nearest(request: CassetteRequest): CassetteRequest | null {
    const all = [...this.recorded, ...this.fresh].map((exchange) => exchange.request);
    if (all.length === 0) return null;
    const samePath = all.filter((r) => r.method === request.method && r.path === request.path);
    const candidates = samePath.length > 0 ? samePath : all;
    const wanted = requestLines(request);
    let best = candidates[0]!;
    let bestDistance = Number.POSITIVE_INFINITY;
    for (const candidate of candidates) {
      const distance = diffDistance(lineDiff(requestLines(candidate), wanted));
      if (distance < bestDistance) {
        best = candidate;
        bestDistance = distance;
      }
    }
    return best;
  }

  /** Requests offered to `take` so far (1-based number of the latest), across every channel sharing the tape. */
  get requests(): number {
    return this.requestCount;
  }

  /** Answers served from the cassette. */
  get replayed(): number {
    return this.replayedCount;
  }

  /** Exchanges recorded live. */
  get recordedLive(): number {
    return this.fresh.length;
  }

  /**
   * The file's exchanges nothing asked for: none took them, and `record` did not replace them.
   */
  obsoleteCount(): number {
    if (this.mode === 'record' && this.fresh.length > 0) return 0;
    return this.used.filter((u) => !u).length;
  }

  /**
   * The channel's exchanges as the file should hold them after this attempt: `record` replaces the
   * old ones once it recorded something; `auto` appends what it recorded. With `dropUnused`, the
   * file's exchanges nothing took are left out (`--update-cassettes` after a full run).
   */
  result(dropUnused: boolean): CassetteExchange[] {
    if (this.mode === 'record' && this.fresh.length > 0) return [...this.fresh];
    const kept = dropUnused ? this.recorded.filter((_, i) => this.used[i]) : [...this.recorded];
    return this.mode === 'auto' || this.mode === 'record' ? kept.concat(this.fresh) : kept;
  }
}
