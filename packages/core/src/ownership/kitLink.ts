// Which kit made a result, client or view: a link the layers below the kit (trace/, client/,
// execution/, agents/) attach without importing the kit, so the kit depends on them and never the
// other way round (docs/ARCHITECTURE.md, "Layering").
/**
 * Results, clients and views made by a kit carry a non-enumerable link to it under this symbol,
 * so matchers can record their verdict as an evaluation in the right kit (contract §7 "Recording").
 */
export const KIT_LINK: unique symbol = Symbol.for('sf-m3.kit') as never;

/** Links of frozen (non-extensible) objects such as `TraceResult` and `TraceView`. */
const frozenLinks = new WeakMap<object, object>();

/** Attaches the kit link to `target` without making it enumerable or serialized. */
export function linkToKit<T extends object>(target: T, kit: object): T {
  if (Object.isExtensible(target)) {
    Object.defineProperty(target, KIT_LINK, { value: kit, enumerable: false, configurable: true });
  } else {
    frozenLinks.set(target, kit);
  }
  return target;
}

/** The kit `target` was made by, if any. */
export function kitOf(target: unknown): unknown {
  if (typeof target !== 'object' || target === null) return undefined;
  return (target as { [KIT_LINK]?: unknown })[KIT_LINK] ?? frozenLinks.get(target);
}
