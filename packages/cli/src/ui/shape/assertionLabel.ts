// Which assertion an evaluation row is: a run with ten `toHaveToolCall` checks must not show ten
// rows of "m3.expect.toHaveToolCall passed ok". The matcher saves its call site (`testPath`,
// `line`) in the row's metadata; a tool and arguments are shown when the metadata carries them.
import type { EvaluationResult, JsonValue } from '@sf-m3/core';

/** How a report names one evaluation row. */
export interface AssertionLabel {
  /** `path:line` of the `expect(...)` call (relative to the project when inside it), or null. */
  site: string | null;
  /** The tool the assertion named, when recorded. */
  tool: string | null;
  /** The assertion's arguments as one short line of JSON, when recorded. */
  args: string | null;
}

/** Longest argument text a row shows (the execution view has the rest). */
export const MAX_ASSERTION_ARGS = 120;

// No node:path here: the viewer's client bundles this module for the browser.
function shownPath(path: string, cwd: string | undefined): string {
  const posix = path.split('\\').join('/');
  if (cwd === undefined || cwd === '') return posix;
  const root = cwd.split('\\').join('/').replace(/\/+$/, '') + '/';
  return posix.startsWith(root) ? posix.slice(root.length) : posix;
}

function shortJson(value: JsonValue | undefined): string | null {
  if (value === undefined || value === null) return null;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > MAX_ASSERTION_ARGS ? `${text.slice(0, MAX_ASSERTION_ARGS - 1)}…` : text;
}

/** The call site, tool and arguments of `evaluation`, from what its metadata recorded. */
export function assertionLabel(evaluation: Pick<EvaluationResult, 'metadata'>, cwd?: string): AssertionLabel {
  const { metadata } = evaluation;
  const testPath = typeof metadata.testPath === 'string' ? metadata.testPath : null;
  const line = typeof metadata.line === 'number' ? metadata.line : null;
  const site =
    testPath === null ? null : line === null ? shownPath(testPath, cwd) : `${shownPath(testPath, cwd)}:${line}`;
  const tool = typeof metadata.tool === 'string' ? metadata.tool : null;
  return { site, tool, args: shortJson(metadata.arguments) };
}

/** One line naming the assertion: `tests/git.test.ts:42 git_status {"repo":"."}`, or '' when nothing was recorded. */
export function assertionText(label: AssertionLabel): string {
  return [label.site, label.tool, label.args].filter((part): part is string => part !== null).join(' ');
}
