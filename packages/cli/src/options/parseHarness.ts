// `--harness KIND=MODEL[,MODEL]` (repeatable): which agent harnesses and models `test.m3` expands to.
import { UsageError } from './UsageError';

/** Harness kinds of contract §14. */
export const HARNESS_KINDS = ['acp', 'openai', 'claude_code', 'codex', 'opencode', 'pi'] as const;
/** A harness kind. */
export type HarnessKind = (typeof HARNESS_KINDS)[number];

/** One harness with its models; travels to Jest as JSON in `M3_HARNESS`. */
export interface HarnessSelection {
  harness: HarnessKind;
  models: string[];
}

const MODEL_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.:/@+-]*$/;

/** Parses every `--harness` value, merging repeated kinds and rejecting duplicate kind/model pairs. */
export function parseHarness(values: readonly string[]): HarnessSelection[] {
  const selections: HarnessSelection[] = [];
  for (const value of values) {
    const eq = value.indexOf('=');
    if (eq <= 0) throw new UsageError('--harness', 'expected KIND=MODEL[,MODEL] (e.g. --harness openai=gpt-4.1-mini)');
    const kind = value.slice(0, eq).trim();
    if (!(HARNESS_KINDS as readonly string[]).includes(kind)) {
      throw new UsageError('--harness', `unknown harness kind "${kind}"; use one of ${HARNESS_KINDS.join(', ')}`);
    }
    const models = value
      .slice(eq + 1)
      .split(',')
      .map((m) => m.trim());
    if (models.some((m) => !MODEL_PATTERN.test(m))) {
      throw new UsageError('--harness', `"${kind}" needs one or more comma-separated model names after "="`);
    }
    let selection = selections.find((s) => s.harness === kind);
    if (!selection) {
      selection = { harness: kind as HarnessKind, models: [] };
      selections.push(selection);
    }
    for (const model of models) {
      if (selection.models.includes(model)) {
        throw new UsageError('--harness', `${kind}=${model} is selected twice`);
      }
      selection.models.push(model);
    }
  }
  return selections;
}
