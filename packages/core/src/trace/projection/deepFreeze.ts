/** Freezes `value` and everything reachable from it; returns it for chaining. */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) {
    if (typeof value === 'object' && value !== null) {
      // A frozen shell may still hold unfrozen children (e.g. a frozen array of plain objects).
      for (const child of Object.values(value)) deepFreeze(child);
    }
    return value;
  }
  Object.freeze(value);
  for (const child of Object.values(value)) deepFreeze(child);
  return value;
}

/** A deep, JSON-shaped copy of `value` (plain objects and arrays only). */
export function jsonClone<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
