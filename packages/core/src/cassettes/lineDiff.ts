/** One line of a line diff: kept (` `), only in the old text (`-`), only in the new text (`+`). */
export interface DiffLine {
  readonly kind: ' ' | '-' | '+';
  readonly text: string;
}

/** Above this many cells the middle of two texts is shown as all removed, then all added. */
const MAX_DIFF_CELLS = 4_000_000;

/**
 * A line diff of `before` against `after` (longest common subsequence after the common head and
 * tail are set aside, so two long requests that differ in one message stay cheap).
 */
export function lineDiff(before: readonly string[], after: readonly string[]): DiffLine[] {
  let head = 0;
  while (head < before.length && head < after.length && before[head] === after[head]) head += 1;
  let tail = 0;
  while (
    tail < before.length - head &&
    tail < after.length - head &&
    before[before.length - 1 - tail] === after[after.length - 1 - tail]
  ) {
    tail += 1;
  }
  const a = before.slice(head, before.length - tail);
  const b = after.slice(head, after.length - tail);
  const out: DiffLine[] = before.slice(0, head).map((text) => ({ kind: ' ', text }));
  out.push(...middleDiff(a, b));
  out.push(...before.slice(before.length - tail).map((text): DiffLine => ({ kind: ' ', text })));
  return out;
}

function middleDiff(a: readonly string[], b: readonly string[]): DiffLine[] {
  if (a.length * b.length > MAX_DIFF_CELLS || a.length === 0 || b.length === 0) {
    return [...a.map((text): DiffLine => ({ kind: '-', text })), ...b.map((text): DiffLine => ({ kind: '+', text }))];
  }
  const width = b.length + 1;
  // lcs[i * width + j]: length of the longest common subsequence of a[i..] and b[j..]
  const lcs = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i -= 1) {
    for (let j = b.length - 1; j >= 0; j -= 1) {
      lcs[i * width + j] =
        a[i] === b[j]
          ? lcs[(i + 1) * width + j + 1]! + 1
          : Math.max(lcs[(i + 1) * width + j]!, lcs[i * width + j + 1]!);
    }
  }
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      out.push({ kind: ' ', text: a[i]! });
      i += 1;
      j += 1;
    } else if (lcs[(i + 1) * width + j]! >= lcs[i * width + j + 1]!) {
      out.push({ kind: '-', text: a[i]! });
      i += 1;
    } else {
      out.push({ kind: '+', text: b[j]! });
      j += 1;
    }
  }
  while (i < a.length) out.push({ kind: '-', text: a[i++]! });
  while (j < b.length) out.push({ kind: '+', text: b[j++]! });
  return out;
}

/** Number of lines that differ (removed plus added). */
export function diffDistance(diff: readonly DiffLine[]): number {
  let n = 0;
  for (const line of diff) if (line.kind !== ' ') n += 1;
  return n;
}

/**
 * The request as the lines a miss diff compares: `METHOD path`, the allowlisted headers, then the
 * body pretty-printed (a text body as its lines).
 */
export function requestLines(request: {
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: unknown;
}): string[] {
  const lines = [`${request.method} ${request.path}`];
  for (const name of Object.keys(request.headers).sort()) lines.push(`${name}: ${request.headers[name]}`);
  if (request.body === null || request.body === undefined) return lines;
  const body = typeof request.body === 'string' ? request.body : JSON.stringify(request.body, null, 2);
  return lines.concat(body.split('\n'));
}
