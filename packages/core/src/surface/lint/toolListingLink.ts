/** What a listed tools array knows about the client that listed it. */
export interface ToolListingOrigin {
  /** The server's binding name. */
  readonly server: string;
  readonly executionId: string;
  /** The client's trace events so far (live), for the earlier `tools/list` responses. */
  traceEvents(): readonly unknown[];
}

const LISTING_LINK: unique symbol = Symbol.for('sf-m3.tool-listing') as never;

/** Marks `tools` (a `listAllTools()` / `listTools().tools` array) with the client that listed it. */
export function linkToolListing<T extends object>(tools: T, origin: ToolListingOrigin): T {
  Object.defineProperty(tools, LISTING_LINK, { value: origin, enumerable: false, configurable: true });
  return tools;
}

/** The client that listed `tools`, if a kit's client did. */
export function toolListingOrigin(tools: unknown): ToolListingOrigin | undefined {
  if (typeof tools !== 'object' || tools === null) return undefined;
  return (tools as { [LISTING_LINK]?: ToolListingOrigin })[LISTING_LINK];
}
