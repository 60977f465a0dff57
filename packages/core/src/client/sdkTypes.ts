/** The MCP SDK's `types.js`: its zod schemas, `McpError` and `ErrorCode`. */
export type SdkTypes = typeof import('@modelcontextprotocol/sdk/types.js');

let loaded: SdkTypes | undefined;

/**
 * The MCP SDK's `types.js`, required on first use: it builds the SDK's zod schemas, which costs
 * more than the rest of `@sf-m3/core` together, so importing sf-m3 does not load it.
 */
export function sdkTypes(): SdkTypes {
  loaded ??= require('@modelcontextprotocol/sdk/types.js') as SdkTypes;
  return loaded;
}
