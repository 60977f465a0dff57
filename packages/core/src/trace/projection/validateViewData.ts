import { ExecutionOutcome } from '../../enums';
import { ModelValidationError } from '../../errors';
import { parseObservation } from '../Observation';
import type { TraceEntry, TraceViewData } from '../TraceEntry';

/** Observation-valued fields of each entry kind (checked against the state/reason rules). */
const OBSERVATION_FIELDS: Record<TraceEntry['kind'], readonly string[]> = {
  lifecycle: [],
  message: ['stopReason'],
  reasoning: ['content'],
  tool_call: ['tool', 'arguments', 'result', 'error', 'wire', 'reported'],
  protocol: ['method', 'request', 'response', 'error'],
  transport: ['configured', 'instrumented'],
  initialization: ['protocolVersion', 'era', 'serverName', 'serverVersion', 'instructions', 'capabilities', 'tools'],
  usage: ['usage'],
  interaction: ['request', 'response'],
  process: ['executable', 'pid', 'exitCode', 'signal', 'stderr'],
  diagnostic: [],
  raw_message: ['preview'],
  evaluation: [],
};

const OUTCOMES: ReadonlySet<string> = new Set(Object.values(ExecutionOutcome));

function fail(message: string): never {
  throw new ModelValidationError(`invalid trace view data: ${message}`);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Checks one observation, and the observations nested in its value where the shape has them. */
function checkObservation(value: unknown, where: string): void {
  try {
    parseObservation(value);
  } catch (error) {
    fail(`${where}: ${(error as Error).message}`);
  }
  if (!isObject(value) || !isObject(value.value)) return;
  const inner = value.value;
  if (isObject(inner.result) && 'state' in inner.result) checkObservation(inner.result, `${where}.value.result`);
  if (isObject(inner.structuredContent) && 'state' in inner.structuredContent) {
    checkObservation(inner.structuredContent, `${where}.value.structuredContent`);
  }
  if (isObject(inner.status) && 'state' in inner.status) checkObservation(inner.status, `${where}.value.status`);
  // Reported arguments are an observation; a wire call's are the tool's raw arguments.
  if (where.endsWith('.reported') && isObject(inner.arguments)) {
    checkObservation(inner.arguments, `${where}.value.arguments`);
  }
  if (isObject(inner.result) && isObject(inner.result.value)) {
    const sc = inner.result.value.structuredContent;
    if (sc !== undefined) checkObservation(sc, `${where}.value.result.value.structuredContent`);
  }
}

/**
 * Validates a `TraceViewData` read back from JSON: schema, required fields, known entry kinds,
 * and every observation's state/reason/value rules. Throws `ModelValidationError`.
 */
export function validateViewData(data: TraceViewData): void {
  if (!isObject(data)) fail('expected an object from TraceView.toJSON()');
  if (data.schema !== 'm3.trace_view') fail("schema must be 'm3.trace_view'");
  if (data.schemaVersion !== 1) fail(`unsupported schemaVersion ${String(data.schemaVersion)}`);
  if (typeof data.traceId !== 'string' || typeof data.executionId !== 'string')
    fail('traceId and executionId are required');
  if (!OUTCOMES.has(data.outcome)) fail(`unknown outcome ${String(data.outcome)}`);
  if (data.completeness !== 'complete' && data.completeness !== 'partial')
    fail('completeness must be complete or partial');
  if (!Array.isArray(data.limitations)) fail('limitations must be a list');
  if (!isObject(data.runtime) || typeof data.runtime.kind !== 'string') fail('runtime needs a kind');
  for (const [key, value] of Object.entries(data.runtime)) {
    if (key !== 'kind') checkObservation(value, `runtime.${key}`);
  }
  if (!isObject(data.summary) || !isObject(data.summary.timing)) fail('summary with timing is required');
  checkObservation(data.summary.usage, 'summary.usage');
  if (!Array.isArray(data.timeline)) fail('timeline must be a list');
  data.timeline.forEach((entry, index) => {
    if (!isObject(entry)) fail(`timeline[${index}] must be an object`);
    const fields = OBSERVATION_FIELDS[entry.kind];
    if (fields === undefined) fail(`timeline[${index}] has an unknown kind ${String(entry.kind)}`);
    if (typeof entry.entryId !== 'string' || !entry.entryId.startsWith('entry:')) {
      fail(`timeline[${index}] needs an entryId of the form entry:<sha256>`);
    }
    for (const key of ['sequenceStart', 'sequenceEnd', 'startMs', 'endMs'] as const) {
      if (typeof entry[key] !== 'number' || !Number.isFinite(entry[key]))
        fail(`timeline[${index}].${key} must be a number`);
    }
    if (typeof entry.status !== 'string') fail(`timeline[${index}] needs a status`);
    for (const field of fields) {
      checkObservation((entry as unknown as Record<string, unknown>)[field], `timeline[${index}].${field}`);
    }
  });
}
