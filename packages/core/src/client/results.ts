import type {
  GetPromptResult,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  ServerCapabilities,
  Tool,
} from '@modelcontextprotocol/sdk/types.js';

import type { CacheHints } from './cacheHints';

export type { GetPromptResult, Prompt, Resource, ResourceTemplate, Tool };

/**
 * What the server said when the connection opened (contract §4, §23 `client.initialization`): at
 * `initialize` in the legacy era, in its `server/discover` answer (identity from the result's
 * `_meta`) in the modern one. The same shape in both eras.
 */
export interface InitializationResult {
  readonly protocolVersion: string;
  /** `legacy` (2025 `initialize` handshake) or `modern` (2026-07-28, stateless). */
  readonly era: 'legacy' | 'modern';
  readonly serverInfo: { readonly name: string; readonly version: string; readonly [key: string]: unknown };
  readonly capabilities: ServerCapabilities;
  readonly instructions: string | null;
}

/** One page of `tools/list`; `ttlMs` / `cacheScope` as the server sent them (2026-07-28, contract §23). */
export interface ToolsPage extends CacheHints {
  readonly tools: Tool[];
  readonly nextCursor: string | undefined;
}

/** One page of `resources/list`. */
export interface ResourcesPage extends CacheHints {
  readonly resources: Resource[];
  readonly nextCursor: string | undefined;
}

/** One page of `resources/templates/list`. */
export interface ResourceTemplatesPage extends CacheHints {
  readonly resourceTemplates: ResourceTemplate[];
  readonly nextCursor: string | undefined;
}

/** One page of `prompts/list`. */
export interface PromptsPage extends CacheHints {
  readonly prompts: Prompt[];
  readonly nextCursor: string | undefined;
}

/** `resources/read` with `.text`: the text of every text content, joined without separator. */
export interface ResourceReadResult {
  readonly contents: ReadResourceResult['contents'];
  readonly text: string;
  /** The execution the read belongs to, so an assertion on it is saved with it, as a tool result's is. */
  readonly executionId?: string;
}

/** `completion/complete`. */
export interface CompletionResult {
  readonly values: string[];
  /** Total number of matches the server knows of, or null when it did not say. */
  readonly total: number | null;
  readonly hasMore: boolean;
}

/** A completion reference: a prompt by name or a resource template by URI. */
export type CompletionReference = { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };

/** The argument being completed. */
export interface CompletionArgument {
  name: string;
  value: string;
}

/** Already-resolved arguments that give the completion context. */
export interface CompletionContext {
  arguments?: Record<string, string>;
}

/** A notification sent with `sendNotification`. */
export interface ClientNotificationMessage {
  method: string;
  params?: Record<string, unknown>;
}

/** The `server/discover` answer of a 2026-07-28 server (contract §23 `client.discover()`). */
export interface DiscoverResult {
  /** The revisions the server speaks, newest first as it lists them. */
  readonly supportedVersions: string[];
  readonly capabilities: ServerCapabilities;
  readonly instructions?: string;
  readonly _meta?: Record<string, unknown>;
  readonly [key: string]: unknown;
}
