import { EvaluationStatus } from '../enums';
import type { JsonObject } from '../json';
import { toJsonValue } from '../redaction/Redactor';
import type { EvaluationMetrics } from './EvaluationResult';

/** A callback's verdict after validation. */
export interface NormalizedVerdict {
  readonly status: EvaluationStatus;
  readonly score: number | null;
  readonly rationale: string | null;
  readonly metrics: EvaluationMetrics;
  readonly provenance: JsonObject;
}

/** The outcome of validating a verdict: the verdict, or the problem with it. */
export type VerdictCheck = { ok: true; verdict: NormalizedVerdict } | { ok: false; problem: string };

const STATUSES = new Set<string>(Object.values(EvaluationStatus));
const DECISION_KEYS = new Set(['status', 'score', 'rationale', 'metrics', 'provenance']);

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/**
 * Validates what an evaluator callback returned: a decision object, a status string or a boolean.
 * Anything else is a problem described in words the user can act on.
 */
export function normalizeVerdict(value: unknown): VerdictCheck {
  if (typeof value === 'boolean') {
    return ok(value ? EvaluationStatus.PASSED : EvaluationStatus.FAILED, null, null, {}, {});
  }
  if (typeof value === 'string') {
    if (STATUSES.has(value)) return ok(value as EvaluationStatus, null, null, {}, {});
    return bad(`status ${JSON.stringify(value.slice(0, 40))} is not one of ${[...STATUSES].join(', ')}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return bad(`expected a decision object, a status string or a boolean, got ${describe(value)}`);
  }
  const decision = value as Record<string, unknown>;
  const unknownKeys = Object.keys(decision).filter((k) => !DECISION_KEYS.has(k));
  if (unknownKeys.length > 0) return bad(`unknown decision field(s): ${unknownKeys.slice(0, 5).join(', ')}`);
  const { status, score, rationale, metrics, provenance } = decision;
  if (typeof status !== 'string' || !STATUSES.has(status)) {
    return bad(`status must be one of ${[...STATUSES].join(', ')}, got ${describe(status)}`);
  }
  if (score !== undefined && score !== null) {
    if (typeof score !== 'number' || !Number.isFinite(score) || score < 0 || score > 1) {
      return bad(
        `score must be a number between 0 and 1 or null, got ${typeof score === 'number' ? score : describe(score)}`,
      );
    }
  }
  if (rationale !== undefined && rationale !== null && typeof rationale !== 'string') {
    return bad(`rationale must be a string or null, got ${describe(rationale)}`);
  }
  const checkedMetrics: EvaluationMetrics = {};
  if (metrics !== undefined && metrics !== null) {
    if (typeof metrics !== 'object' || Array.isArray(metrics))
      return bad(`metrics must be an object, got ${describe(metrics)}`);
    for (const [key, metric] of Object.entries(metrics as Record<string, unknown>)) {
      const valid =
        metric === null ||
        typeof metric === 'string' ||
        typeof metric === 'boolean' ||
        (typeof metric === 'number' && Number.isFinite(metric));
      if (!valid) return bad(`metric ${JSON.stringify(key)} must be a finite number, string, boolean or null`);
      checkedMetrics[key] = metric as number | string | boolean | null;
    }
  }
  let checkedProvenance: JsonObject = {};
  if (provenance !== undefined && provenance !== null) {
    if (typeof provenance !== 'object' || Array.isArray(provenance)) return bad('provenance must be an object');
    checkedProvenance = toJsonValue(provenance) as JsonObject;
  }
  return ok(
    status as EvaluationStatus,
    typeof score === 'number' ? score : null,
    typeof rationale === 'string' ? rationale : null,
    checkedMetrics,
    checkedProvenance,
  );
}

function ok(
  status: EvaluationStatus,
  score: number | null,
  rationale: string | null,
  metrics: EvaluationMetrics,
  provenance: JsonObject,
): VerdictCheck {
  return { ok: true, verdict: { status, score, rationale, metrics, provenance } };
}

function bad(problem: string): VerdictCheck {
  return { ok: false, problem };
}
