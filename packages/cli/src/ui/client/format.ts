// How numbers, rates and times are written in the viewer.

/** `83.3%`, or `–` when there is no rate. */
export function percent(rate: number | null | undefined): string {
  return rate === null || rate === undefined ? '–' : `${(rate * 100).toFixed(1)}%`;
}

/** `[61.2%, 94.1%]`, or an empty string. */
export function interval(range: readonly [number, number] | null | undefined): string {
  return range ? `[${percent(range[0])}, ${percent(range[1])}]` : '';
}

/** An ISO instant as `2026-12-02 01:40:12 UTC`. */
export function instant(iso: string | null | undefined): string {
  return iso ? `${iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, '')} UTC` : '–';
}

/** Milliseconds as `12 ms` / `3.4 s`. */
export function duration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '–';
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** Any JSON value as indented text (strings as they are). */
export function jsonText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}
