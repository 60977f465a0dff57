import type { ServerResponse } from 'node:http';
import type { JsonValue } from '../json';
import type { FakeConversationView, FakeModelDialect, FakeModelRequest } from './fakeModelRequest';
import type { FakeChatReply, ResolvedReply } from './fakeModelReply';

/** What a dialect read from a generation route's method, path and query. */
export interface DialectRoute {
  /** Model named in the path (Gemini), else undefined. */
  readonly model?: string;
  /** Whether the route itself asks for a stream (Gemini `:streamGenerateContent`). */
  readonly stream?: boolean;
  /** Whether a stream is sent as server-sent events (Gemini without `alt=sse` streams a JSON array). */
  readonly sse?: boolean;
}

/** How a reply is rendered for one request. */
export interface RenderOptions {
  /** Model name to echo. */
  readonly model: string;
  readonly stream: boolean;
  readonly route: DialectRoute;
  /** Extra response headers. */
  readonly headers: Readonly<Record<string, string>>;
  /** The request being answered (Responses reads the tools offered to shape namespaced calls). */
  readonly request: FakeConversationView;
}

/** One wire dialect of the fake model server: recognises its routes, reads requests, writes replies and errors. */
export interface FakeDialect {
  readonly name: FakeModelDialect;
  /** Prefix of default tool-call ids. */
  readonly toolCallIdPrefix: string;
  /** The route when `method path` is one of this dialect's generation routes, else null. */
  route(method: string, path: string, query: URLSearchParams): DialectRoute | null;
  /** The neutral view of a request body. */
  read(body: JsonValue | null, route: DialectRoute): FakeConversationView;
  /**
   * A reply the dialect sends on its own, before any rule, or null (Responses: the code-mode tool discovery,
   * which learns the nested tools Codex does not name, so rules can match them).
   */
  ownReply?(request: FakeModelRequest): FakeChatReply | null;
  /** Writes a successful reply (JSON, or a stream when asked for). */
  write(res: ServerResponse, reply: ResolvedReply, options: RenderOptions): void;
  /** Writes an error in the dialect's error shape. */
  writeError(
    res: ServerResponse,
    status: number,
    message: string,
    type: string,
    headers: Readonly<Record<string, string>>,
  ): void;
}
