import type { JsonObject, JsonValue } from '../json';
import type { ExecutionRecord } from '../store/records';
import type { EvaluationLabels } from './EvaluationResult';

/** What an evaluation row's labels are built from. */
export interface LabelSources {
  /** The kit's run and suite, used when the execution does not say. */
  readonly runId: string | null;
  readonly suiteName: string | null;
  /** The execution's own labels (harness, model, trial, matrix, metadata...), when known. */
  readonly execution: ExecutionRecord['labels'] | null;
  readonly caseId: string | null;
  readonly server?: string | null;
  readonly tool?: string | null;
  readonly judge?: { readonly model: string; readonly rubricId: string | null } | null;
  /** The evaluation's (already redacted) metadata; becomes `metadata.<key>` labels. */
  readonly metadata: JsonObject;
}

function stringifyLabel(value: JsonValue): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * The labels an evaluation is aggregated by: the execution's labels, then the kit's run/suite, the
 * case, judge model and rubric, and the evaluation's metadata stringified over the execution's.
 */
export function buildEvaluationLabels(from: LabelSources): EvaluationLabels {
  const execution = from.execution;
  return {
    runId: execution?.runId ?? from.runId,
    suiteName: execution?.suiteName ?? from.suiteName,
    caseId: from.caseId,
    server: execution?.server ?? from.server ?? null,
    tool: from.tool ?? null,
    transport: execution?.transport ?? null,
    harness: execution?.harness ?? null,
    model: execution?.model ?? null,
    trial: execution?.trial ?? null,
    judgeModel: from.judge?.model ?? null,
    rubricId: from.judge?.rubricId ?? null,
    matrixId: execution?.matrixId ?? null,
    metadata: {
      ...(execution?.metadata ?? {}),
      ...Object.fromEntries(Object.entries(from.metadata).map(([k, v]) => [k, stringifyLabel(v)])),
    },
  };
}
