// Enough of npm's semver ranges to check an installed version against a package's `engines` and
// `peerDependencies`: `||`, hyphen ranges, `^`, `~`, comparisons and x-ranges (`1.x`, `*`).
// Prerelease versions sort before their release, as in semver.

/** A parsed version: major, minor, patch and the prerelease tag (empty for a release). */
interface Version {
  readonly parts: readonly [number, number, number];
  readonly prerelease: string;
}

interface Partial {
  readonly parts: readonly number[];
  readonly prerelease: string;
}

interface Bound {
  readonly op: '>=' | '>' | '<' | '<=';
  readonly version: Version;
}

const PARTIAL = /^v?(\d+|[xX*])(?:\.(\d+|[xX*]))?(?:\.(\d+|[xX*]))?(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/;

function parsePartial(text: string): Partial | null {
  const match = PARTIAL.exec(text.trim());
  if (match === null) return null;
  const parts: number[] = [];
  for (const piece of [match[1], match[2], match[3]]) {
    if (piece === undefined || /^[xX*]$/.test(piece)) break;
    parts.push(Number(piece));
  }
  return { parts, prerelease: match[4] ?? '' };
}

/** Parses a full version (`30.5.2`, `v20.19.0`, `6.0.0-beta`); null when it is not one. */
export function parseVersion(text: string): Version | null {
  const partial = parsePartial(text);
  if (partial === null || partial.parts.length !== 3) return null;
  return { parts: partial.parts as [number, number, number], prerelease: partial.prerelease };
}

function compare(a: Version, b: Version): number {
  for (let i = 0; i < 3; i += 1) if (a.parts[i] !== b.parts[i]) return a.parts[i]! - b.parts[i]!;
  if (a.prerelease === b.prerelease) return 0;
  if (a.prerelease === '') return 1;
  if (b.prerelease === '') return -1;
  return a.prerelease < b.prerelease ? -1 : 1;
}

const v = (major: number, minor = 0, patch = 0, prerelease = ''): Version => ({
  parts: [major, minor, patch],
  prerelease,
});

/** The lowest version a partial covers, and the first version past it (null: unbounded). */
function extent(p: Partial): { low: Version; next: Version | null } {
  const [major = 0, minor = 0, patch = 0] = p.parts;
  const low = v(major, minor, patch, p.prerelease);
  if (p.parts.length === 0) return { low, next: null };
  if (p.parts.length === 1) return { low, next: v(major + 1) };
  if (p.parts.length === 2) return { low, next: v(major, minor + 1) };
  return { low, next: null };
}

function comparatorBounds(text: string): Bound[] | null {
  const match = /^(\^|~>?|>=|<=|>|<|=)?\s*(.*)$/.exec(text)!;
  const op = match[1] ?? '';
  const p = parsePartial(match[2]!);
  if (p === null) return null;
  const { low, next } = extent(p);
  const [major = 0, minor = 0, patch = 0] = p.parts;
  const exact = p.parts.length === 3;
  switch (op) {
    case '':
    case '=':
      if (p.parts.length === 0) return [];
      return exact
        ? [
            { op: '>=', version: low },
            { op: '<=', version: low },
          ]
        : [
            { op: '>=', version: low },
            { op: '<', version: next! },
          ];
    case '^': {
      const upper =
        major > 0 || p.parts.length === 1
          ? v(major + 1)
          : minor > 0 || p.parts.length === 2
            ? v(0, minor + 1)
            : v(0, 0, patch + 1);
      return p.parts.length === 0
        ? []
        : [
            { op: '>=', version: low },
            { op: '<', version: upper },
          ];
    }
    case '~':
    case '~>':
      if (p.parts.length === 0) return [];
      return [
        { op: '>=', version: low },
        { op: '<', version: p.parts.length === 1 ? v(major + 1) : v(major, minor + 1) },
      ];
    case '>=':
      return [{ op: '>=', version: low }];
    case '>':
      return exact
        ? [{ op: '>', version: low }]
        : next === null
          ? [{ op: '<', version: v(0) }]
          : [{ op: '>=', version: next }];
    case '<=':
      return exact ? [{ op: '<=', version: low }] : next === null ? [] : [{ op: '<', version: next }];
    default:
      return [{ op: '<', version: low }];
  }
}

function setBounds(set: string): Bound[] | null {
  const hyphen = /^(\S+)\s+-\s+(\S+)$/.exec(set.trim());
  if (hyphen !== null) {
    const low = comparatorBounds(`>=${hyphen[1]}`);
    const high = comparatorBounds(`<=${hyphen[2]}`);
    return low === null || high === null ? null : [...low, ...high];
  }
  // `>= 1.2` is one comparator: join an operator with the version after it.
  const tokens = set
    .trim()
    .replace(/(\^|~>?|>=|<=|>|<|=)\s+/g, '$1')
    .split(/\s+/)
    .filter((t) => t !== '');
  const bounds: Bound[] = [];
  for (const token of tokens) {
    const b = comparatorBounds(token);
    if (b === null) return null;
    bounds.push(...b);
  }
  return bounds;
}

function within(version: Version, bound: Bound): boolean {
  const c = compare(version, bound.version);
  if (bound.op === '>=') return c >= 0;
  if (bound.op === '>') return c > 0;
  if (bound.op === '<=') return c <= 0;
  return c < 0;
}

/**
 * True when `version` is in `range`; null when either cannot be read. A prerelease version only
 * matches a set that names a prerelease of the same major.minor.patch, as in npm.
 */
export function satisfies(version: string, range: string): boolean | null {
  const parsed = parseVersion(version);
  if (parsed === null) return null;
  let readable = false;
  for (const set of range.split('||')) {
    const bounds = setBounds(set);
    if (bounds === null) continue;
    readable = true;
    if (!bounds.every((b) => within(parsed, b))) continue;
    if (parsed.prerelease === '') return true;
    const sameTuple = bounds.some(
      (b) => b.version.prerelease !== '' && b.version.parts.every((n, i) => n === parsed.parts[i]),
    );
    if (sameTuple) return true;
  }
  return readable ? false : null;
}
