import type * as SdkV2Client from '@modelcontextprotocol/client';

/** The official SDK v2 client package (`@modelcontextprotocol/client`). */
export type SdkV2ClientModule = typeof SdkV2Client;

let loaded: SdkV2ClientModule | undefined;

/**
 * `@modelcontextprotocol/client`, loaded on first use: only connections in the 2026-07-28 era
 * need it, so test files that never reach one do not pay for loading it.
 */
export function loadSdkV2Client(): SdkV2ClientModule {
  loaded ??= require('@modelcontextprotocol/client') as SdkV2ClientModule;
  return loaded;
}
