import * as path from 'node:path';

const FRAME = /\(?((?:file:\/\/)?[^\s()]+?):(\d+):(\d+)\)?$/;
const INTERNAL = [
  `${path.sep}node_modules${path.sep}`,
  'node:internal',
  `${path.sep}matchers${path.sep}src${path.sep}`,
];

/** The `file:line` of the assertion that is running, read from a stack captured in the matcher. */
export interface CallSite {
  readonly file: string | null;
  readonly line: number | null;
}

/**
 * Finds the user's `expect(...)` line in `stack`: the first frame in `testPath` when known, else
 * the first frame outside node_modules, Node internals and this package.
 */
export function callSiteFrom(stack: string | undefined, testPath: string | undefined): CallSite {
  const frames: { file: string; line: number }[] = [];
  for (const raw of (stack ?? '').split('\n').slice(1)) {
    const match = FRAME.exec(raw.trim());
    if (!match) continue;
    const file = match[1]!.replace(/^file:\/\//, '');
    frames.push({ file, line: Number(match[2]) });
  }
  const inTest = testPath ? frames.find((f) => f.file === testPath) : undefined;
  const outside = inTest ?? frames.find((f) => !INTERNAL.some((marker) => f.file.includes(marker)));
  return outside ? { file: outside.file, line: outside.line } : { file: null, line: null };
}

/**
 * Captures the current stack deep enough to reach the test file through Jest's expect. V8 only
 * formats (and source-maps) it when `.stack` is read, so matchers that record nothing pay little.
 */
export function captureStack(): { readonly stack?: string } {
  const previous = Error.stackTraceLimit;
  Error.stackTraceLimit = 40;
  try {
    return new Error('call site');
  } finally {
    Error.stackTraceLimit = previous;
  }
}
