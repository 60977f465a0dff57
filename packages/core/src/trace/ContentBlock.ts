import type { JsonObject } from '../json';

// The content blocks of MCP (tool results, prompt messages) and of ACP agent messages, typed as the
// MCP SDK types them (`@modelcontextprotocol/sdk/types`), so that `block.type === 'text'` narrows
// `block` to `TextContent`. The types describe; nothing validates blocks against them beyond `type`
// being a string: a block is passed through exactly as the server or agent sent it.

/** Who a block is meant for, as the MCP `Role` says. */
export type ContentRole = 'user' | 'assistant';

/** Hints for the client about a block or resource (MCP `Annotations`). */
export type ContentAnnotations = {
  /** Intended audience(s). */
  readonly audience?: ContentRole[];
  /** Importance hint, 0 (least) to 1 (most). */
  readonly priority?: number;
  /** ISO 8601 time of the most recent modification. */
  readonly lastModified?: string;
};

/** An icon a resource offers for display (MCP `Icon`). */
export type ContentIcon = {
  /** URL or data URI of the icon. */
  readonly src: string;
  readonly mimeType?: string;
  /** Sizes such as `48x48`, or `any`. */
  readonly sizes?: string[];
  readonly theme?: 'light' | 'dark';
};

/** Text (MCP `TextContent`). */
export type TextContent = {
  readonly type: 'text';
  readonly text: string;
  readonly annotations?: ContentAnnotations;
  readonly _meta?: JsonObject;
};

/** A base64 image (MCP `ImageContent`). */
export type ImageContent = {
  readonly type: 'image';
  /** Base64-encoded image data. */
  readonly data: string;
  readonly mimeType: string;
  readonly annotations?: ContentAnnotations;
  readonly _meta?: JsonObject;
};

/** Base64 audio (MCP `AudioContent`). */
export type AudioContent = {
  readonly type: 'audio';
  /** Base64-encoded audio data. */
  readonly data: string;
  readonly mimeType: string;
  readonly annotations?: ContentAnnotations;
  readonly _meta?: JsonObject;
};

/** A link to a resource the client may read (MCP `ResourceLink`). */
export type ResourceLink = {
  readonly type: 'resource_link';
  readonly uri: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
  /** Size of the raw content in bytes, when known. */
  readonly size?: number;
  readonly icons?: ContentIcon[];
  readonly annotations?: ContentAnnotations;
  readonly _meta?: JsonObject;
};

/** The text of a resource (MCP `TextResourceContents`). */
export type TextResourceContents = {
  readonly uri: string;
  readonly mimeType?: string;
  readonly text: string;
  readonly _meta?: JsonObject;
};

/** The binary content of a resource, base64 (MCP `BlobResourceContents`). */
export type BlobResourceContents = {
  readonly uri: string;
  readonly mimeType?: string;
  /** Base64-encoded bytes. */
  readonly blob: string;
  readonly _meta?: JsonObject;
};

/** A resource embedded in the result (MCP `EmbeddedResource`). */
export type EmbeddedResource = {
  readonly type: 'resource';
  readonly resource: TextResourceContents | BlobResourceContents;
  readonly annotations?: ContentAnnotations;
  readonly _meta?: JsonObject;
};

/** A content block (MCP `ContentBlock`), discriminated on `type`. */
export type ContentBlock = TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource;

/** The text of the `text` blocks of `content`, joined with no separator as `toHaveText` joins it. */
export function textOfBlocks(content: readonly ContentBlock[]): string {
  return content
    .filter((block): block is TextContent => block.type === 'text' && typeof block.text === 'string')
    .map((block) => block.text)
    .join('');
}
