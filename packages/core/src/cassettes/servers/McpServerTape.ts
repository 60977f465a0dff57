import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Redactor } from '../../redaction/Redactor';
import type { CassetteRequest } from '../CassetteFormat';
import type { CassetteUse } from '../CassetteMode';
import type { CassetteScope, CassetteTape } from '../CassetteScope';
import { VolatileStrings } from '../VolatileStrings';
import { mcpMissError } from './mcpMissError';
import { mcpServerChannel } from './mcpServerChannel';
import {
  MCP_TAPE_METHOD,
  messagesOfTapeResponse,
  tapeRequestOf,
  tapeResponseOf,
  type McpRequestMessage,
} from './mcpTapeMessages';

/** Which server of which trial of the running test, and the kit's redactor. */
export interface McpServerTapeOptions {
  readonly scope: CassetteScope;
  readonly serverName: string;
  /** 1-based trial of the agent selection. */
  readonly trial: number;
  readonly redactor: Redactor;
  /**
   * Strings that change from run to run (the agent's temp folders): replaced by placeholders in
   * requests and answers before matching and writing, and given back in replayed answers. Read at
   * each request (an agent's folders may be made after its servers' proxies).
   */
  readonly volatileStrings?: () => readonly string[];
  /** Called once, with this server's first miss. */
  readonly onMiss?: (error: Error) => void;
}

/** JSON-RPC error code of a request the cassette has no answer for (implementation-defined range). */
export const CASSETTE_MISS_RPC_CODE = -32099;

/**
 * One MCP server's side of one agent execution on its cassette tape `mcp <server> trial <n>`
 * (contract §24). It decides once how the server is served: `replay` (mode `replay`, or `auto` with
 * something recorded on the channel: the server is not started) or `live` (mode `record`, or `auto`
 * with nothing recorded: the server runs and every exchange is recorded). Counts what it served and
 * remembers the first request it had no answer for.
 */
export class McpServerTape {
  readonly channel: string;
  readonly serving: 'replay' | 'live';
  private readonly tape: CassetteTape;
  private replayedCount = 0;
  private recordedCount = 0;
  private requestCount = 0;
  private firstMiss: Error | null = null;

  constructor(private readonly options: McpServerTapeOptions) {
    this.channel = mcpServerChannel(options.serverName, options.trial);
    this.tape = options.scope.tape(this.channel);
    const probe: CassetteRequest = { method: MCP_TAPE_METHOD, path: 'initialize', headers: {}, body: null };
    this.serving =
      this.tape.mode === 'replay' || (this.tape.mode === 'auto' && this.tape.nearest(probe) !== null)
        ? 'replay'
        : 'live';
  }

  get serverName(): string {
    return this.options.serverName;
  }

  /** The request as the tape matches and stores it. */
  requestOf(message: McpRequestMessage): CassetteRequest {
    return tapeRequestOf(message, this.options.redactor, this.volatile());
  }

  private volatile(): VolatileStrings {
    return new VolatileStrings(this.options.volatileStrings?.() ?? []);
  }

  /**
   * Replay: the messages that answer `message` (what the server sent before its answer, then the
   * answer with the agent's id), or, with no recorded answer, a JSON-RPC error carrying the miss
   * message (the first miss is kept for `miss()`).
   */
  answer(message: McpRequestMessage): JSONRPCMessage[] {
    this.requestCount += 1;
    const volatile = this.volatile();
    const request = tapeRequestOf(message, this.options.redactor, volatile);
    const recorded = this.tape.take(request);
    const messages = recorded === null ? null : messagesOfTapeResponse(recorded, message.id, volatile);
    if (messages !== null) {
      this.replayedCount += 1;
      return messages;
    }
    const error = mcpMissError({
      scope: this.options.scope,
      channel: this.channel,
      serverName: this.options.serverName,
      index: this.requestCount,
      request,
      nearest: this.tape.nearest(request),
    });
    if (this.firstMiss === null) {
      this.firstMiss = error;
      this.options.onMiss?.(error);
    }
    return [
      {
        jsonrpc: '2.0',
        id: message.id,
        error: { code: CASSETTE_MISS_RPC_CODE, message: error.message, data: { type: 'cassette_miss' } },
      },
    ];
  }

  /** Live: records one exchange (request, what the server sent before its answer, the answer). */
  record(message: McpRequestMessage, answer: JSONRPCMessage, before: readonly JSONRPCMessage[]): void {
    this.requestCount += 1;
    const volatile = this.volatile();
    this.tape.record({
      request: tapeRequestOf(message, this.options.redactor, volatile),
      response: tapeResponseOf(answer, before, this.options.redactor, volatile),
    });
    this.recordedCount += 1;
  }

  /** The first request replay had no answer for, or null. */
  miss(): Error | null {
    return this.firstMiss;
  }

  counts(): { readonly replayed: number; readonly recorded: number } {
    return { replayed: this.replayedCount, recorded: this.recordedCount };
  }

  /** How this server's traffic was served so far; null before any exchange. */
  use(): CassetteUse | null {
    return cassetteUseOf(this.counts());
  }
}

/** `replayed`, `recorded` or `mixed` from counts; null when nothing was served. */
export function cassetteUseOf(counts: { readonly replayed: number; readonly recorded: number }): CassetteUse | null {
  if (counts.replayed === 0 && counts.recorded === 0) return null;
  if (counts.recorded === 0) return 'replayed';
  return counts.replayed === 0 ? 'recorded' : 'mixed';
}
