import type { ValidateFunction } from 'ajv';
import { JUDGE_REPLY_SCHEMA } from './judgeRequest';

/** A judge's validated reply. */
export interface JudgeReply {
  readonly score: number | null;
  readonly rationale: string;
  readonly abstain: boolean;
}

let compiled: ValidateFunction<JudgeReply> | undefined;

/** The reply validator, compiled on the first reply: ajv loads then, not when sf-m3 is imported. */
function replyValidator(): ValidateFunction<JudgeReply> {
  if (compiled === undefined) {
    const Ajv = require('ajv') as typeof import('ajv');
    compiled = new Ajv.default({ allErrors: true, strict: false }).compile<JudgeReply>(JUDGE_REPLY_SCHEMA);
  }
  return compiled;
}

/** Strips one surrounding Markdown code fence, which local models add despite instructions. */
function unfence(text: string): string {
  const match = /^\s*```(?:json)?\s*\n([\s\S]*?)\n?```\s*$/i.exec(text);
  return match ? match[1]! : text;
}

/**
 * Parses and validates reply text against the judge reply schema (ajv). Problems are described
 * by JSON path and rule only, never with the reply's values.
 */
export function parseJudgeReply(text: string): { ok: true; reply: JudgeReply } | { ok: false; problem: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(unfence(text));
  } catch {
    return { ok: false, problem: 'the judge reply is not JSON' };
  }
  const validateReply = replyValidator();
  if (!validateReply(parsed)) {
    const errors = (validateReply.errors ?? [])
      .slice(0, 5)
      .map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`)
      .join('; ');
    return { ok: false, problem: `the judge reply does not match { score, rationale, abstain }: ${errors}` };
  }
  if (!parsed.abstain && (parsed.score === null || !Number.isFinite(parsed.score))) {
    return { ok: false, problem: 'the judge reply has no score but did not abstain' };
  }
  return { ok: true, reply: parsed };
}
