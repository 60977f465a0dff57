/** A run of invisible characters in one string. */
export interface HiddenRun {
  readonly start: number;
  readonly end: number;
  /** The kinds found in the run, e.g. `zero-width`, `bidirectional control`, `tag`. */
  readonly kinds: readonly string[];
  /** The ASCII text tag characters (U+E0020..U+E007E) spell, when the run has them. */
  readonly tagText: string;
}

const PICTOGRAPHIC = /\p{Extended_Pictographic}/u;

/**
 * The kind of an invisible character, or null for a visible one (or an allowed one: tab, line
 * feed, carriage return, emoji variation selectors, a zero-width joiner inside an emoji sequence).
 */
export function hiddenKind(text: string, index: number): string | null {
  const cp = text.codePointAt(index) as number;
  if (cp === 0x09 || cp === 0x0a || cp === 0x0d) return null;
  if (cp >= 0xe0000 && cp <= 0xe007f) return 'tag';
  if (
    (cp >= 0x202a && cp <= 0x202e) ||
    (cp >= 0x2066 && cp <= 0x2069) ||
    cp === 0x200e ||
    cp === 0x200f ||
    cp === 0x061c
  ) {
    return 'bidirectional control';
  }
  if (cp === 0x200d) {
    const before = index > 0 ? String.fromCodePoint(text.codePointAt(index - 1) as number) : '';
    const prev = index >= 2 ? text.slice(index - 2, index) : before;
    const after = text.slice(index + 1, index + 3);
    const emojiBefore =
      PICTOGRAPHIC.test(prev) || PICTOGRAPHIC.test(before) || /\uFE0F|[\u{1F3FB}-\u{1F3FF}]/u.test(prev);
    if (emojiBefore && PICTOGRAPHIC.test(after)) return null;
    return 'zero-width';
  }
  if (cp === 0x200b || cp === 0x200c || cp === 0x2060 || cp === 0xfeff || cp === 0x180e) return 'zero-width';
  if (cp === 0xfe0e || cp === 0xfe0f) return null;
  if ((cp >= 0xfe00 && cp <= 0xfe0d) || (cp >= 0xe0100 && cp <= 0xe01ef)) return 'variation selector';
  if (cp === 0x3164 || cp === 0x115f || cp === 0x1160 || cp === 0xffa0 || cp === 0x2800) return 'blank letter';
  const ch = String.fromCodePoint(cp);
  if (/\p{Cc}/u.test(ch)) return 'control';
  if (/\p{Cf}/u.test(ch)) return 'format';
  if (/\p{Co}/u.test(ch)) return 'private use';
  return null;
}

/** The runs of invisible characters in `text`, adjacent ones merged. */
export function findHiddenRuns(text: string): HiddenRun[] {
  const runs: HiddenRun[] = [];
  let current: { start: number; end: number; kinds: Set<string>; tagText: string } | null = null;
  for (let i = 0; i < text.length;) {
    const cp = text.codePointAt(i) as number;
    const width = cp > 0xffff ? 2 : 1;
    const kind = hiddenKind(text, i);
    if (kind !== null) {
      current ??= { start: i, end: i, kinds: new Set(), tagText: '' };
      current.end = i + width;
      current.kinds.add(kind);
      if (cp >= 0xe0020 && cp <= 0xe007e) current.tagText += String.fromCharCode(cp - 0xe0000);
    } else if (current !== null) {
      runs.push({ start: current.start, end: current.end, kinds: [...current.kinds], tagText: current.tagText });
      current = null;
    }
    i += width;
  }
  if (current !== null)
    runs.push({ start: current.start, end: current.end, kinds: [...current.kinds], tagText: current.tagText });
  return runs;
}
