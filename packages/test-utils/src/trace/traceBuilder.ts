/**
 * Test helpers that build realistic traces, event by event, the way the trace recorder emits them
 * (payloads per `payloads.ts`). Used by matcher, store and evaluation tests; excluded from the build.
 */
import type { ExecutionOutcome, TransportKind } from '../../../core/src/enums/index';
import type { JsonObject, JsonValue } from '../../../core/src/json';
import { TraceEventListBuilder } from './TraceEventListBuilder';
import type { TraceResult } from '../../../core/src/trace/TraceResult';

export { TraceEventListBuilder, type EventFields } from './TraceEventListBuilder';

/** One tool call of `buildDirectTrace`. */
export interface DirectCallSpec {
  tool: string;
  /** Server binding name (default: the trace's `server`). */
  server?: string;
  arguments?: JsonObject;
  /** The `CallToolResult` (default: one text block `ok`). */
  result?: { content: JsonObject[]; structuredContent?: JsonValue; isError?: boolean };
  /** Shortcut for `result.isError`. */
  isError?: boolean;
  /** A JSON-RPC error instead of a result (status `protocol_error`). */
  error?: { code: number; message: string; data?: JsonValue };
  /** No response: how the call ended instead (status of the same name). */
  unanswered?: 'incomplete' | 'timed_out' | 'cancelled' | 'transport_error';
  /** Milliseconds between request and response (default 5). */
  latencyMs?: number;
  /** Turn the call belongs to (direct traces have none; for filter tests). */
  turnId?: string;
}

/** Options of `buildDirectTrace`. */
export interface DirectTraceSpec {
  executionId?: string;
  traceId?: string;
  /** Default server binding name (default `example`). */
  server?: string;
  calls?: DirectCallSpec[];
  outcome?: ExecutionOutcome;
  transport?: TransportKind;
  protocolVersion?: string;
  /** Capabilities the server advertises at initialize (default `{ tools: {} }`). */
  capabilities?: JsonObject;
  /** Per server, tool names a `tools/list` exchange returns right after initialization. */
  listedTools?: Record<string, string[]>;
}

/** The `CallToolResult` of a call spec: its `result` (default one text block `ok`), `isError` applied. */
export function toolCallResult(call: Pick<DirectCallSpec, 'result' | 'isError'>): JsonObject {
  const base = call.result ?? { content: [{ type: 'text', text: 'ok' }] };
  const isError = call.isError ?? base.isError;
  return {
    content: base.content,
    ...(base.structuredContent !== undefined ? { structuredContent: base.structuredContent } : {}),
    ...(isError !== undefined ? { isError } : {}),
  };
}

const UNANSWERED_DIAGNOSTIC = {
  timed_out: 'operation_timeout',
  cancelled: 'operation_cancelled',
  transport_error: 'transport_closed',
} as const;

/**
 * A finalized direct trace as a `DirectClient` session would record it: per server a process
 * (stdio), transport connect, `initialize` exchange, `mcp.initialized`, `notifications/initialized`;
 * then each call's `tools/call` request with its result / error / diagnostic; then disconnects and
 * `execution.finished` (partial, `capture_incomplete`).
 */
export function buildDirectTrace(spec: DirectTraceSpec = {}): TraceResult {
  const defaultServer = spec.server ?? 'example';
  const transport: TransportKind = spec.transport ?? 'stdio';
  const calls = spec.calls ?? [];
  const serverNames = [...new Set([defaultServer, ...calls.map((c) => c.server ?? defaultServer)])];
  const builder = new TraceEventListBuilder({
    executionId: spec.executionId,
    traceId: spec.traceId,
    servers: serverNames.map((name) => ({
      name,
      transport,
      target: transport === 'http' ? 'http://127.0.0.1/mcp' : name,
    })),
  });
  const protocolVersion = spec.protocolVersion ?? '2025-11-25';
  const connections = new Map<string, { connectionId: string; nextId: number; pid: number }>();
  serverNames.forEach((server, index) => {
    const connectionId = `conn-${String(index + 1).padStart(32, '0')}`;
    const pid = 40_000 + index;
    connections.set(server, { connectionId, nextId: 1, pid });
    const on = { server, connectionId };
    if (transport === 'stdio')
      builder.add('process.started', { ...on, phase: 'startup', payload: { executable: 'node', pid } });
    builder.add('transport.connected', {
      ...on,
      phase: 'startup',
      payload: { transport, instrumented: 'sdk-transport-wrapper' },
    });
    builder.add('mcp.request', {
      ...on,
      phase: 'initialization',
      direction: 'client_to_server',
      jsonrpcId: 0,
      payload: {
        method: 'initialize',
        params: { protocolVersion, capabilities: {}, clientInfo: { name: 'sf-m3', version: '0.1.0' } },
      },
    });
    const serverInfo = { name: `${server}-server`, version: '1.0.0' };
    const capabilities = spec.capabilities ?? { tools: {} };
    builder.add('mcp.response', {
      ...on,
      phase: 'initialization',
      direction: 'server_to_client',
      jsonrpcId: 0,
      afterMs: 2,
      payload: { method: 'initialize', result: { protocolVersion, capabilities, serverInfo } },
    });
    builder.add('mcp.initialized', {
      ...on,
      phase: 'initialization',
      afterMs: 0,
      payload: { protocolVersion, serverInfo, capabilities, instructions: null },
    });
    builder.add('mcp.notification', {
      ...on,
      phase: 'initialization',
      direction: 'client_to_server',
      payload: { method: 'notifications/initialized', params: null },
    });
    const listed = spec.listedTools?.[server];
    if (listed !== undefined) {
      const jsonrpcId = connections.get(server)!.nextId++;
      const rpc = { ...on, phase: 'mcp_call' as const, jsonrpcId };
      builder.add('mcp.request', {
        ...rpc,
        direction: 'client_to_server',
        payload: { method: 'tools/list', params: {} },
      });
      builder.add('mcp.response', {
        ...rpc,
        direction: 'server_to_client',
        payload: {
          method: 'tools/list',
          result: { tools: listed.map((name) => ({ name, inputSchema: { type: 'object' } })) },
        },
      });
    }
  });
  for (const call of calls) {
    const server = call.server ?? defaultServer;
    const connection = connections.get(server)!;
    const jsonrpcId = connection.nextId++;
    const on = {
      server,
      connectionId: connection.connectionId,
      jsonrpcId,
      phase: 'mcp_call' as const,
      ...(call.turnId !== undefined ? { turnId: call.turnId } : {}),
    };
    builder.add('tool.call_requested', {
      ...on,
      direction: 'client_to_server',
      payload: {
        method: 'tools/call',
        params: { name: call.tool, ...(call.arguments !== undefined ? { arguments: call.arguments } : {}) },
      },
    });
    const afterMs = call.latencyMs ?? 5;
    if (call.unanswered !== undefined) {
      if (call.unanswered !== 'incomplete') {
        const code = UNANSWERED_DIAGNOSTIC[call.unanswered];
        builder.add('diagnostic', {
          ...on,
          afterMs,
          direction: 'internal',
          payload: { code, message: `tools/call ended: ${code}`, operation: 'tools/call', elapsedMs: afterMs },
        });
      }
    } else if (call.error !== undefined) {
      builder.add('mcp.error', {
        ...on,
        afterMs,
        direction: 'server_to_client',
        payload: {
          method: 'tools/call',
          error: { code: call.error.code, message: call.error.message, data: call.error.data ?? null },
        },
      });
    } else {
      builder.add('tool.result_received', {
        ...on,
        afterMs,
        direction: 'server_to_client',
        payload: { method: 'tools/call', result: toolCallResult(call) },
      });
    }
  }
  for (const server of serverNames) {
    const { connectionId, pid } = connections.get(server)!;
    const on = { server, connectionId, phase: 'cleanup' as const };
    builder.add('transport.disconnected', {
      ...on,
      payload: { transport, instrumented: 'sdk-transport-wrapper', reason: 'client_close' },
    });
    if (transport === 'stdio') {
      builder.add('process.exited', {
        ...on,
        payload: {
          executable: 'node',
          pid,
          exitCode: null,
          signal: 'SIGTERM',
          stderr: { preview: '', sizeBytes: 0, truncated: false, redacted: true },
        },
      });
    }
  }
  return builder.finish(spec.outcome ?? 'completed');
}
