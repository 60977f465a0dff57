import { kitOf, type RecordedCheck, Redactor } from '@sf-m3/core';

/** Redacts strings and JSON-like values (the kit's `Redactor` has this shape). */
export interface RedactorLike {
  redactText(text: string): string;
}

/** A verdict a matcher asks the kit to save as an evaluation: the kit's own `RecordedCheck`. */
export type MatcherCheck = RecordedCheck;

/** A judge's saved verdict, as far as `toSatisfyJudge` reads it. */
export interface JudgeVerdictLike {
  readonly status: string;
  readonly score?: number | null;
  readonly rationale?: string | null;
  readonly evaluationId?: string;
}

/** The parts of an `MCPTestKit` the matchers use, read structurally. */
export interface KitLike {
  readonly recordChecks?: boolean;
  readonly redactor?: RedactorLike;
  /** The running test's cassettes (contract §24), or null: a judge's request goes through them. */
  readonly cassettes?: unknown;
  recordCheck?(check: MatcherCheck): Promise<unknown>;
  judgeResponse?(options: Record<string, unknown>): Promise<JudgeVerdictLike>;
}

const isKitLike = (value: unknown): value is KitLike => typeof value === 'object' && value !== null;

/**
 * The ambient kit: `m3Kit` from the matcher state (`expect.setState({ m3Kit })`), else the `m3Kit`
 * global. Reading the global may create the test's kit, so matchers only ask when they need one.
 */
export function ambientKit(state?: unknown): KitLike | undefined {
  const candidates: unknown[] = [];
  if (typeof state === 'object' && state !== null) candidates.push((state as { m3Kit?: unknown }).m3Kit);
  try {
    candidates.push((globalThis as { m3Kit?: unknown }).m3Kit);
  } catch {
    // an environment whose m3Kit getter refuses outside a test: no kit
  }
  return candidates.find(isKitLike);
}

/** The kit a matcher reports to: the subject's own kit, else (when `ambient`) the ambient kit. */
export function findKit(subject: unknown, state?: unknown, ambient = true): KitLike | undefined {
  return linkedKit(subject) ?? (ambient ? ambientKit(state) : undefined);
}

/** The kit the subject (or the result, view or trace it wraps) was made by, if any. */
export function linkedKit(subject: unknown): KitLike | undefined {
  const candidates: unknown[] = [kitOf(subject)];
  if (typeof subject === 'object' && subject !== null) {
    for (const key of ['result', 'traceView', 'trace']) {
      try {
        candidates.push(kitOf((subject as Record<string, unknown>)[key]));
      } catch {
        // a getter that is not ready yet links nothing
      }
    }
  }
  return candidates.find(isKitLike);
}

const fallbackRedactor = new Redactor();

/** The kit's redactor, or one that still removes bearer tokens, URL credentials and secret-named keys. */
export function redactorOf(kit: KitLike | undefined): RedactorLike {
  const redactor = kit?.redactor;
  return redactor && typeof redactor.redactText === 'function' ? redactor : fallbackRedactor;
}
