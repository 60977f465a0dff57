import { ModelValidationError } from '../errors/M3Error';
import { LLMJudge } from '../judge/LLMJudge';
import type { Redactor } from '../redaction/Redactor';
import { BUILTIN_EVALUATORS } from './builtins';
import type { EvaluatorCallback } from './EvaluatorCallback';

/** What a name is registered to: a built-in or user callback, or an `LLMJudge`. */
export type Registration =
  | { readonly kind: 'builtin' | 'callback'; readonly callback: EvaluatorCallback }
  | { readonly kind: 'judge'; readonly judge: LLMJudge };

/** Longest evaluator name. */
export const MAX_EVALUATOR_NAME = 256;

/** Checks an evaluator name (1–256 characters, not blank) and returns it. */
export function validateEvaluatorName(name: unknown): string {
  if (typeof name !== 'string' || name.trim().length === 0 || name.length > MAX_EVALUATOR_NAME) {
    throw new ModelValidationError(
      `evaluator name must be a non-blank string of 1–${MAX_EVALUATOR_NAME} characters, e.g. 'project.answer.v1'`,
      { length: typeof name === 'string' ? name.length : null },
    );
  }
  return name;
}

/**
 * The evaluators a kit knows by name: the built-ins, then what `register` adds. A judge's API key
 * becomes a canary of the kit's redactor as soon as the judge is registered.
 */
export class EvaluatorRegistry {
  private readonly registry = new Map<string, Registration>();

  constructor(private readonly redactor: Redactor) {
    for (const [name, callback] of Object.entries(BUILTIN_EVALUATORS)) {
      this.registry.set(name, { kind: 'builtin', callback });
    }
  }

  /** What `name` is registered to, if anything. */
  get(name: string): Registration | undefined {
    return this.registry.get(name);
  }

  /**
   * Names an evaluator. Registering does not make it required. Re-registering the same callback or an
   * equally configured judge is a no-op; anything else under a taken name throws `ModelValidationError`.
   */
  register(name: string, evaluator: EvaluatorCallback | LLMJudge): void {
    validateEvaluatorName(name);
    const existing = this.registry.get(name);
    if (evaluator instanceof LLMJudge) {
      evaluator.addCanaries(this.redactor);
      if (existing?.kind === 'judge') {
        if (existing.judge.configDigest === evaluator.configDigest) return;
        throw new ModelValidationError(
          `conflicting judge configuration for evaluator ${name}: one evaluator name must always use the same judge settings; use a new name (e.g. bump its version)`,
          { evaluator: name },
        );
      }
      if (existing) throw this.taken(name, existing);
      this.registry.set(name, { kind: 'judge', judge: evaluator });
      return;
    }
    if (typeof evaluator !== 'function') {
      throw new ModelValidationError('an evaluator must be a callback (ctx) => decision or an LLMJudge', {
        evaluator: name,
      });
    }
    if (existing) {
      if (existing.kind === 'callback' && existing.callback === evaluator) return;
      throw this.taken(name, existing);
    }
    this.registry.set(name, { kind: 'callback', callback: evaluator });
  }

  private taken(name: string, existing: Registration): ModelValidationError {
    const why = existing.kind === 'builtin' ? 'it is a built-in evaluator name' : 'it is already registered';
    return new ModelValidationError(`cannot register evaluator ${name}: ${why}; choose another name`, {
      evaluator: name,
    });
  }
}
