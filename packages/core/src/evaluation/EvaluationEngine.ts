import type { CassetteScope } from '../cassettes/CassetteScope';
import { EvaluationStatus } from '../enums';
import { ModelValidationError } from '../errors/M3Error';
import { RequiredEvaluationError } from '../errors/RequiredEvaluationError';
import { newId } from '../ids';
import type { JsonObject } from '../json';
import type { JudgeBudget } from '../judge/budget/JudgeBudget';
import { LLMJudge } from '../judge/LLMJudge';
import type { Redactor } from '../redaction/Redactor';
import { toJsonValue } from '../redaction/Redactor';
import { lineageKey, type EvaluationLineage } from '../store/aggregation/lineage';
import type { ExecutionStore } from '../store/ExecutionStore';
import type { ExecutionRecord } from '../store/records';
import { boundText, boundedRationale, redactStrings } from './boundedRationale';
import type { EvaluationLabels, EvaluationResult } from './EvaluationResult';
import type { EvaluateOptions, EvaluationContext, EvaluatorCallback } from './EvaluatorCallback';
import { normalizeVerdict, type NormalizedVerdict } from './normalizeVerdict';
import { subjectDigest, subjectJson } from './subjectDigest';
import { buildEvaluationLabels } from './evaluationLabels';
import { ownString, pickId, resolveTraceView } from './resolveSubject';
import { EvaluatorRegistry, validateEvaluatorName, type Registration } from './EvaluatorRegistry';
import { SpecRequirements } from './SpecRequirements';

export { MAX_EVALUATOR_NAME } from './EvaluatorRegistry';

/** What the kit gives the engine: where to save, how to redact, and the run/suite/case it is bound to. */
export interface EvaluationContextSource {
  store: ExecutionStore;
  redactor: Redactor;
  runId: string | null;
  suiteName: string | null;
  caseId: string | null;
  /** Labels the execution's evaluations inherit, or null when the kit does not know it. */
  executionLabels(executionId: string): Promise<ExecutionRecord['labels'] | null>;
  /** The run's judge budget (`--judge-max-requests`), or null/absent for no cap. */
  judgeBudget?: JudgeBudget | null;
  /**
   * The running test's cassettes (`kit.cassettes`, contract §24): a judge's request goes through
   * them unless the call names its own.
   */
  cassettes?: CassetteScope | null;
}

/** A matcher verdict to save as evaluator `m3.expect.<matcher>`. */
export interface RecordedCheck {
  /** `m3.expect.<matcher>`, or just the matcher name (the prefix is added). */
  evaluator: string;
  passed: boolean;
  rationale: string;
  subject: unknown;
  executionId: string | null;
  turnId?: string | null;
  metadata: JsonObject;
}

/** Options of `judgeResponse`: the text to judge and the judge to ask. */
export interface JudgeResponseOptions {
  /** Evaluator name the verdict is saved under (1–256 chars). */
  readonly name: string;
  readonly input: string;
  readonly actual: string;
  readonly expected: string;
  readonly judge: LLMJudge;
  readonly executionId?: string | null;
  readonly turnId?: string | null;
  readonly caseId?: string | null;
  readonly required?: boolean;
  readonly metadata?: JsonObject;
  /** The cassettes the judge's request goes through (`kit.cassettes`, contract §24). */
  readonly cassette?: CassetteScope | null;
}

/** Prefix of evaluators recorded by matchers. */
export const MATCHER_EVALUATOR_PREFIX = 'm3.expect.';
/** Checks the toolkit records under its own names (contract §25 `m3.fuzz.valid` / `m3.fuzz.invalid`). */
export const FUZZ_EVALUATOR_PREFIX = 'm3.fuzz.';

// A negated use records as `m3.expect.not.<matcher>`; its provenance still names the matcher.
const matcherOf = (evaluator: string): string => evaluator.slice(MATCHER_EVALUATOR_PREFIX.length).replace(/^not\./, '');
const ERROR_MESSAGE_CHARS = 300;

/**
 * Runs evaluators and judges, saves every verdict in the store with its labels, and enforces required
 * evaluations (contract §8, §9). The kit delegates `registerEvaluator`, `evaluate`, `judgeResponse`,
 * `recordCheck`, `evaluationResults` and `requiredFailures` here.
 */
export class EvaluationEngine {
  private readonly registry: EvaluatorRegistry;
  private readonly saved: EvaluationResult[] = [];
  private readonly requiredLineages = new Set<string>();
  private readonly specRequirements: SpecRequirements;
  private lastCreatedMs = 0;

  constructor(private readonly source: EvaluationContextSource) {
    this.specRequirements = new SpecRequirements(source.store);
    this.registry = new EvaluatorRegistry(source.redactor);
  }

  /** Names an evaluator (see `EvaluatorRegistry.register`); registering does not make it required. */
  register(name: string, evaluator: EvaluatorCallback | LLMJudge): void {
    this.registry.register(name, evaluator);
  }

  /** Runs a registered evaluator on `subject`, saves the verdict, and throws if a required one did not pass. */
  async evaluate(subject: unknown, name: string, options: EvaluateOptions = {}): Promise<EvaluationResult> {
    validateEvaluatorName(name);
    const registration = this.registry.get(name);
    if (!registration) {
      throw new ModelValidationError(
        `evaluator ${name} is not registered: call kit.registerEvaluator('${name}', callback) first`,
        { evaluator: name },
      );
    }
    if (registration.kind === 'judge') registration.judge.addCanaries(this.source.redactor);
    const executionId = pickId('execution', options.executionId, ownString(subject, 'executionId'));
    const turnId = pickId('turn', options.turnId, ownString(subject, 'turnId'));
    const redactor = this.source.redactor;
    const redactedSubject = redactor.redactJson(subjectJson(subject));
    const metadata = redactor.redactJson(toJsonValue(options.metadata ?? {})) as JsonObject;
    const executionLabels = executionId ? await this.source.executionLabels(executionId) : null;
    const caseId = options.caseId ?? executionLabels?.caseId ?? this.source.caseId;
    const trace = await resolveTraceView(this.source.store, subject, options.trace, executionId);
    const context: EvaluationContext = {
      subject: redactedSubject,
      evaluator: name,
      executionId,
      turnId,
      caseId,
      ...(trace ? { trace } : {}),
      metadata,
    };
    const verdict = await this.run(registration, context, options.cassette ?? this.source.cassettes ?? null);
    const judge = registration.kind === 'judge' ? registration.judge : null;
    const isToolResult = typeof (subject as { isError?: unknown } | null)?.isError === 'boolean';
    const labels = buildEvaluationLabels({
      runId: this.source.runId,
      suiteName: this.source.suiteName,
      execution: executionLabels,
      caseId,
      server: ownString(subject, 'server'),
      tool: isToolResult ? ownString(subject, 'tool') : null,
      judge,
      metadata,
    });
    return this.save(
      {
        evaluator: name,
        executionId,
        turnId,
        caseId,
        subjectDigest: subjectDigest(redactedSubject),
        metadata,
        verdict,
        requested: options.required === true,
      },
      labels,
    );
  }

  /** Asks `judge` to grade `actual` against `expected` for `input`; the judge is registered under `name`. */
  async judgeResponse(options: JudgeResponseOptions): Promise<EvaluationResult> {
    if (!(options.judge instanceof LLMJudge)) {
      throw new ModelValidationError('judgeResponse needs judge: an LLMJudge instance', {});
    }
    this.register(options.name, options.judge);
    const { input, actual, expected } = options;
    return this.evaluate({ input, expected, actual }, options.name, {
      executionId: options.executionId ?? null,
      turnId: options.turnId ?? null,
      ...(options.caseId !== undefined ? { caseId: options.caseId } : {}),
      ...(options.required !== undefined ? { required: options.required } : {}),
      ...(options.metadata !== undefined ? { metadata: options.metadata } : {}),
      ...(options.cassette != null ? { cassette: options.cassette } : {}),
    });
  }

  /**
   * Saves a matcher verdict as evaluator `m3.expect.<matcher>` (never required, never throws for a
   * fail); a fuzz verdict keeps its `m3.fuzz.*` name.
   */
  async recordCheck(check: RecordedCheck): Promise<EvaluationResult> {
    const evaluator = validateEvaluatorName(
      check.evaluator.startsWith(MATCHER_EVALUATOR_PREFIX) || check.evaluator.startsWith(FUZZ_EVALUATOR_PREFIX)
        ? check.evaluator
        : MATCHER_EVALUATOR_PREFIX + check.evaluator,
    );
    const redactor = this.source.redactor;
    const metadata = redactor.redactJson(toJsonValue(check.metadata ?? {})) as JsonObject;
    // The check's own arguments are part of its identity: two different expectations on one trace
    // are two lineages, not one overwriting the other.
    const digestSubject = redactor.redactJson({ subject: subjectJson(check.subject), check: metadata });
    const executionLabels = check.executionId ? await this.source.executionLabels(check.executionId) : null;
    const caseId = executionLabels?.caseId ?? this.source.caseId;
    const labels = buildEvaluationLabels({
      runId: this.source.runId,
      suiteName: this.source.suiteName,
      execution: executionLabels,
      caseId,
      metadata,
    });
    return this.save(
      {
        evaluator,
        executionId: check.executionId,
        turnId: check.turnId ?? null,
        caseId,
        subjectDigest: subjectDigest(digestSubject),
        metadata,
        verdict: {
          status: check.passed ? EvaluationStatus.PASSED : EvaluationStatus.FAILED,
          score: null,
          rationale: check.rationale,
          metrics: {},
          provenance: evaluator.startsWith(FUZZ_EVALUATOR_PREFIX)
            ? { kind: 'matcher', matcher: 'describe.m3.fuzz' }
            : { kind: 'matcher', matcher: matcherOf(evaluator) },
        },
        requested: false,
        matcher: true,
      },
      labels,
    );
  }

  /** Every verdict this engine saved, oldest first. */
  results(): EvaluationResult[] {
    return [...this.saved];
  }

  /** Required lineages whose latest verdict is not `passed` (so a caught `RequiredEvaluationError` still fails the run). */
  requiredFailures(): EvaluationResult[] {
    const latest = new Map<string, EvaluationResult>();
    for (const r of this.saved) latest.set(lineageKey(r), r);
    return [...latest.values()].filter((r) => r.required && r.status !== EvaluationStatus.PASSED);
  }

  private async run(
    registration: Registration,
    context: EvaluationContext,
    cassette: CassetteScope | null,
  ): Promise<NormalizedVerdict> {
    if (registration.kind === 'judge') {
      const verdict = await registration.judge.judge(context.subject, {
        redactor: this.source.redactor,
        budget: this.source.judgeBudget ?? null,
        cassette,
      });
      return { ...verdict, provenance: { ...verdict.provenance } };
    }
    const kind = registration.kind;
    let returned: unknown;
    try {
      returned = await registration.callback(context);
    } catch (error) {
      const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      return this.errorVerdict(
        kind,
        `evaluator threw ${boundText(message, this.source.redactor, ERROR_MESSAGE_CHARS)}`,
      );
    }
    const checked = normalizeVerdict(returned);
    if (!checked.ok) return this.errorVerdict(kind, `evaluator returned a malformed decision: ${checked.problem}`);
    return { ...checked.verdict, provenance: { ...checked.verdict.provenance, kind } };
  }

  private errorVerdict(kind: string, rationale: string): NormalizedVerdict {
    return { status: EvaluationStatus.ERROR, score: null, rationale, metrics: {}, provenance: { kind } };
  }

  /** Strictly increasing timestamps, so "latest row per lineage" follows this engine's order. */
  private nextCreatedAt(): string {
    this.lastCreatedMs = Math.max(Date.now(), this.lastCreatedMs + 1);
    return new Date(this.lastCreatedMs).toISOString();
  }

  private async isRequired(lineage: EvaluationLineage, requested: boolean): Promise<boolean> {
    if (requested || this.requiredLineages.has(lineageKey(lineage))) return true;
    if (lineage.executionId && (await this.specRequirements.requires(lineage.executionId, lineage.evaluator))) {
      return true;
    }
    return this.source.store.isRequiredLineage(lineage);
  }

  private async save(
    row: {
      evaluator: string;
      executionId: string | null;
      turnId: string | null;
      caseId: string | null;
      subjectDigest: string;
      metadata: JsonObject;
      verdict: NormalizedVerdict;
      requested: boolean;
      matcher?: boolean;
    },
    labels: EvaluationLabels,
  ): Promise<EvaluationResult> {
    const redactor = this.source.redactor;
    const lineage = {
      executionId: row.executionId,
      turnId: row.turnId,
      evaluator: row.evaluator,
      subjectDigest: row.subjectDigest,
    };
    const required = row.matcher ? false : await this.isRequired(lineage, row.requested);
    const result: EvaluationResult = Object.freeze({
      evaluationId: newId('eval'),
      evaluator: row.evaluator,
      status: row.verdict.status,
      score: row.verdict.score,
      rationale: boundedRationale(row.verdict.rationale, redactor),
      metrics: redactStrings(row.verdict.metrics, redactor),
      required,
      executionId: row.executionId,
      turnId: row.turnId,
      caseId: row.caseId,
      subjectDigest: row.subjectDigest,
      createdAt: this.nextCreatedAt(),
      provenance: redactStrings({ ...row.verdict.provenance, evaluator: row.evaluator }, redactor),
      metadata: row.metadata,
    });
    if (required) this.requiredLineages.add(lineageKey(result));
    await this.source.store.saveEvaluation({ result, labels: redactor.redactJson(labels) });
    this.saved.push(result);
    if (required && result.status !== EvaluationStatus.PASSED) throw new RequiredEvaluationError(result);
    return result;
  }
}
