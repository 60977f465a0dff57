import { ProtocolError } from '../errors';

/** One page of a cursor-paginated MCP list. */
export interface Page<T> {
  readonly items: T[];
  readonly nextCursor: string | undefined;
}

/** Hard stop against a server that keeps inventing cursors. */
export const MAX_PAGES = 10_000;

/**
 * Follows `nextCursor` until the server stops giving one and returns every item in order.
 * A cursor seen twice would loop forever, so it throws `ProtocolError`.
 */
export async function listAll<T>(
  method: string,
  fetchPage: (cursor: string | undefined) => Promise<Page<T>>,
): Promise<T[]> {
  const items: T[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let pages = 0; ; pages += 1) {
    if (pages >= MAX_PAGES) {
      throw new ProtocolError(`MCP pagination did not end: ${method} gave more than ${MAX_PAGES} pages`, {
        operation: method,
        errorKind: 'pagination_unbounded',
      });
    }
    const page = await fetchPage(cursor);
    items.push(...page.items);
    if (page.nextCursor === undefined || page.nextCursor === null) return items;
    if (seen.has(page.nextCursor)) {
      throw new ProtocolError(
        `MCP pagination cursor repeated: ${method} returned a cursor it had already given, which would loop forever`,
        { operation: method, errorKind: 'repeated_cursor', page: pages + 1 },
      );
    }
    seen.add(page.nextCursor);
    cursor = page.nextCursor;
  }
}
