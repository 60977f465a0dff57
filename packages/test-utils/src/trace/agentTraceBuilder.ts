/**
 * Test helper that builds a realistic agent trace (session, turns, messages, tool calls with wire
 * and/or reported evidence), as a harness plus the kit's MCP capture proxy would record it.
 * Excluded from the build; see `traceBuilder.testkit.ts` for direct traces.
 */
import type { ExecutionOutcome } from '../../../core/src/enums/index';
import type { JsonObject, JsonValue } from '../../../core/src/json';
import { toolCallResult, TraceEventListBuilder } from './traceBuilder';
import type { TraceResult } from '../../../core/src/trace/TraceResult';

/** One tool call inside a turn. */
export interface AgentCallSpec {
  tool: string;
  server?: string;
  arguments?: JsonObject;
  result?: { content: JsonObject[]; structuredContent?: JsonValue; isError?: boolean };
  isError?: boolean;
  /** Which evidence exists (default `both`: the agent reported it and the proxy saw it on the wire). */
  evidence?: 'both' | 'wire' | 'reported';
  /** Arguments as the agent reported them, when they differ from the wire (a conflict). */
  reportedArguments?: JsonObject;
  /** Status in the agent's words (default `completed`, or `failed` for tool errors). */
  reportedStatus?: string;
  /** Milliseconds between wire request and response (default 5). */
  latencyMs?: number;
}

/** One turn of the session. */
export interface AgentTurnSpec {
  /** Default `turn-<32 digits of the turn number>`. */
  turnId?: string;
  prompt?: string;
  /** The assistant's final text (default `done`). */
  response?: string;
  calls?: AgentCallSpec[];
  outcome?: ExecutionOutcome;
}

/** Options of `buildAgentTrace`. */
export interface AgentTraceSpec {
  executionId?: string;
  traceId?: string;
  runtime?: 'acp' | 'openai';
  sessionId?: string;
  /** Default server binding name (default `example`). */
  server?: string;
  model?: string;
  turns: AgentTurnSpec[];
  outcome?: ExecutionOutcome;
  /** Record a usage event per turn (token counts), as the openai harness does. */
  usage?: boolean;
}

/** The default id of turn `index` (0-based): `turn-0000…0001` for the first. */
export const agentTurnId = (index: number): string => `turn-${String(index + 1).padStart(32, '0')}`;

/** A finalized agent trace; call statuses follow `result.isError`, like direct traces. */
export function buildAgentTrace(spec: AgentTraceSpec): TraceResult {
  const defaultServer = spec.server ?? 'example';
  const servers = [
    ...new Set([defaultServer, ...spec.turns.flatMap((t) => (t.calls ?? []).map((c) => c.server ?? defaultServer))]),
  ];
  const runtime = spec.runtime ?? 'acp';
  const sessionId = spec.sessionId ?? `session-${'0'.repeat(31)}1`;
  const builder = new TraceEventListBuilder({
    executionId: spec.executionId,
    traceId: spec.traceId,
    runtime,
    servers: servers.map((name) => ({ name, transport: 'stdio', target: name })),
  });
  const s = { sessionId };
  builder.add('session.created', {
    ...s,
    phase: 'startup',
    payload: {
      sessionId,
      protocolVersion: runtime === 'acp' ? '1' : null,
      agent: { name: 'fixture-agent' },
      model: spec.model ?? 'fixture',
    },
  });
  let nextId = 1;
  let callNumber = 0;
  spec.turns.forEach((turn, index) => {
    const turnId = turn.turnId ?? agentTurnId(index);
    const t = { ...s, turnId, phase: 'turn' as const };
    const prompt = turn.prompt ?? `prompt ${index + 1}`;
    builder.add('turn.created', { ...t, payload: { turnId, index: index + 1, prompt } });
    builder.add('agent.message', { ...t, payload: { role: 'user', content: [{ type: 'text', text: prompt }] } });
    for (const call of turn.calls ?? []) {
      const server = call.server ?? defaultServer;
      const evidence = call.evidence ?? 'both';
      const providerCallId = `provider-call-${++callNumber}`;
      const result = toolCallResult(call);
      const reported = { ...t, server, origin: 'harness_reported' as const };
      if (evidence !== 'wire') {
        builder.add('tool.call_requested', {
          ...reported,
          payload: {
            method: 'tools/call',
            params: { name: call.tool, arguments: call.reportedArguments ?? call.arguments ?? {} },
            providerCallId,
          },
        });
      }
      if (evidence !== 'reported') {
        const jsonrpcId = nextId++;
        const wire = {
          ...t,
          phase: 'mcp_call' as const,
          server,
          connectionId: `conn-${server}`,
          jsonrpcId,
          origin: 'wire_observed' as const,
        };
        builder.add('tool.call_requested', {
          ...wire,
          direction: 'client_to_server',
          payload: {
            method: 'tools/call',
            params: { name: call.tool, ...(call.arguments !== undefined ? { arguments: call.arguments } : {}) },
          },
        });
        builder.add('tool.result_received', {
          ...wire,
          afterMs: call.latencyMs ?? 5,
          direction: 'server_to_client',
          payload: { method: 'tools/call', result },
        });
      }
      if (evidence !== 'wire') {
        builder.add('tool.result_received', {
          ...reported,
          payload: {
            method: 'tools/call',
            result,
            providerCallId,
            status: call.reportedStatus ?? (result.isError === true ? 'failed' : 'completed'),
          },
        });
      }
    }
    const response = turn.response ?? 'done';
    builder.add('assistant.content', {
      ...t,
      payload: { role: 'assistant', content: [{ type: 'text', text: response }], stopReason: 'end_turn' },
    });
    if (spec.usage === true) {
      builder.add('usage', {
        ...t,
        payload: {
          inputTokens: 10,
          outputTokens: 5,
          totalTokens: 15,
          reasoningTokens: null,
          cost: null,
          currency: null,
        },
      });
    }
    builder.add('turn.state_changed', {
      ...t,
      payload: { turnId, outcome: turn.outcome ?? 'completed', stopReason: 'end_turn' },
    });
  });
  return builder.finish(spec.outcome ?? 'completed');
}
