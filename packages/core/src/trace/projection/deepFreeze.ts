/** Objects known to be frozen all the way down, so repeated snapshots skip re-walking them. */
const deeplyFrozen = new WeakSet<object>();

/** Freezes `value` and everything reachable from it; returns it for chaining. */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || deeplyFrozen.has(value) || ArrayBuffer.isView(value)) return value;
  // A frozen shell may still hold unfrozen children (a recorder freezes events, not their payloads).
  Object.freeze(value);
  for (const child of Object.values(value)) deepFreeze(child);
  deeplyFrozen.add(value);
  return value;
}

/** A deep, JSON-shaped copy of `value` (plain objects and arrays only). */
export function jsonClone<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
