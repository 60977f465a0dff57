// Test data for the viewer: traces of native agent harnesses (claude_code, codex, …) as their
// drivers and the capture proxy record them, and two stored runs of them whose `tools/list`
// catalogs differ (a baseline and the run after it). Used by the api unit tests and e2e/ui.
import type { ExecutionStore, JsonObject, TraceResult, UsageValue } from '@sf-m3/core';
import { TraceEventListBuilder } from '@sf-m3/test-utils/trace';
import { attemptRecord, executionRecord } from '@sf-m3/test-utils/store';

/** What one native trace holds. */
export interface NativeTraceSpec {
  executionId?: string;
  runtime: 'claude_code' | 'codex' | 'opencode' | 'pi';
  /** The `session.created` the driver records; null: the CLI died before reporting a session. */
  session: { agentSessionId?: string; model?: string; agent?: JsonObject } | null;
  /** The latest cumulative usage; null: the CLI reported none. */
  usage: Partial<UsageValue> | null;
  /** The MCP server's binding name (default `shop`). */
  server?: string;
  /** `tools/list` of the server, as the capture proxy saw it. */
  tools: readonly JsonObject[];
  reasoning: { visibility: 'encrypted' | 'provider_hidden' } | { text: string };
}

/**
 * A two-turn native trace: tools listed, reasoning, an allowed `shipping_quote` call the CLI
 * reported one turn late (a `turn` conflict, paired by its `_meta` id), a call the tool policy
 * denied at the wire, the assistant's answers and the usage.
 */
export function buildNativeTrace(spec: NativeTraceSpec): TraceResult {
  const server = spec.server ?? 'shop';
  const builder = new TraceEventListBuilder({
    executionId: spec.executionId,
    runtime: spec.runtime,
    servers: [{ name: server, transport: 'stdio', target: server }],
  });
  const sessionId = 'session-kit-0001';
  const s = { sessionId };
  if (spec.session !== null) {
    builder.add('session.created', { ...s, phase: 'startup', payload: { sessionId, ...spec.session } });
  }
  const wire = { ...s, server, connectionId: `conn-${server}`, origin: 'wire_observed' as const };
  builder.add('mcp.request', {
    ...wire,
    phase: 'initialization',
    jsonrpcId: 1,
    direction: 'client_to_server',
    payload: { method: 'tools/list', params: {} },
  });
  builder.add('mcp.response', {
    ...wire,
    phase: 'initialization',
    jsonrpcId: 1,
    direction: 'server_to_client',
    payload: { method: 'tools/list', result: { tools: [...spec.tools] } },
  });
  const turn = (n: number) => ({ ...s, turnId: `turn-${n}`, phase: 'turn' as const });
  const reported = (n: number) => ({ ...turn(n), server, origin: 'harness_reported' as const });
  builder.add('turn.created', { ...turn(1), payload: { turnId: 'turn-1', index: 1, prompt: 'quote 2 kg' } });
  builder.add('agent.message', {
    ...turn(1),
    payload: { role: 'user', content: [{ type: 'text', text: 'quote 2 kg' }] },
  });
  builder.add('reasoning', {
    ...turn(1),
    payload:
      'text' in spec.reasoning
        ? { visibility: 'visible', content: [{ type: 'text', text: spec.reasoning.text }] }
        : { visibility: spec.reasoning.visibility },
  });
  const quoteArgs = { weight_kg: 2 };
  const callWire = { ...wire, ...turn(1), phase: 'mcp_call' as const };
  builder.add('tool.call_requested', {
    ...callWire,
    jsonrpcId: 2,
    direction: 'client_to_server',
    payload: {
      method: 'tools/call',
      params: {
        name: 'shipping_quote',
        arguments: quoteArgs,
        _meta: { 'claudecode/toolUseId': 'toolu_1', callId: 'toolu_1' },
      },
      policy: { decision: 'allowed', reason: 'in the allowlist' },
    },
  });
  builder.add('tool.result_received', {
    ...callWire,
    jsonrpcId: 2,
    direction: 'server_to_client',
    payload: { method: 'tools/call', result: { content: [{ type: 'text', text: '7.50 EUR' }] } },
  });
  builder.add('tool.call_requested', {
    ...callWire,
    jsonrpcId: 3,
    direction: 'client_to_server',
    payload: {
      method: 'tools/call',
      params: { name: 'delete_order', arguments: { id: 'o-1' } },
      policy: { decision: 'denied', reason: 'not in the allowlist' },
    },
  });
  builder.add('mcp.error', {
    ...callWire,
    jsonrpcId: 3,
    direction: 'server_to_client',
    payload: {
      method: 'tools/call',
      answeredBy: 'proxy',
      error: { code: -32001, message: `MCP tool call '${server}:delete_order' was denied by this test's tool policy` },
    },
  });
  builder.add('assistant.content', {
    ...turn(1),
    payload: {
      role: 'assistant',
      content: [{ type: 'text', text: 'I may not delete orders.' }],
      stopReason: 'end_turn',
    },
  });
  builder.add('turn.state_changed', { ...turn(1), payload: { turnId: 'turn-1', outcome: 'completed' } });
  builder.add('turn.created', { ...turn(2), payload: { turnId: 'turn-2', index: 2, prompt: 'and the quote?' } });
  // The CLI's own report of the first call arrives in the second turn.
  const call = { method: 'tools/call', providerCallId: 'toolu_1' };
  builder.add('tool.call_requested', {
    ...reported(2),
    payload: { ...call, params: { name: 'shipping_quote', arguments: quoteArgs } },
  });
  builder.add('tool.result_received', {
    ...reported(2),
    payload: { ...call, result: { content: [{ type: 'text', text: '7.50 EUR' }] }, status: 'completed' },
  });
  builder.add('assistant.content', {
    ...turn(2),
    payload: { role: 'assistant', content: [{ type: 'text', text: 'quoted 7.50 EUR' }], stopReason: 'end_turn' },
  });
  if (spec.usage !== null) {
    const usage = { inputTokens: null, outputTokens: null, totalTokens: null, reasoningTokens: null, cost: null };
    builder.add('usage', { ...turn(2), payload: { ...usage, currency: null, ...spec.usage } });
  }
  builder.add('turn.state_changed', { ...turn(2), payload: { turnId: 'turn-2', outcome: 'completed' } });
  return builder.finish('completed');
}

const quoteTool: JsonObject = {
  name: 'shipping_quote',
  description: 'Quote a parcel',
  inputSchema: { type: 'object', properties: { weight_kg: { type: 'number' } }, required: ['weight_kg'] },
};

/** The ids `seedNativeRuns` stores. */
export interface NativeRuns {
  baselineRunId: string;
  runId: string;
  /** The claude_code execution of `runId`: everything observed, reasoning encrypted. */
  claudeExecutionId: string;
  /** The codex execution of `runId`: no session, no usage, reasoning provider_hidden. */
  codexExecutionId: string;
}

async function saveNative(
  store: ExecutionStore,
  runId: string,
  createdAt: string,
  fullName: string,
  spec: NativeTraceSpec,
): Promise<string> {
  const model = spec.session?.model ?? 'unknown-model';
  const labels = {
    harness: spec.runtime,
    model,
    trial: '1',
    server: spec.server ?? 'shop',
    metadata: { harness_config: `${spec.runtime}:${model}`, trial: '1' },
  };
  const execution = executionRecord({
    runId,
    suiteName: 'native',
    caseId: 'quote',
    kind: 'agent',
    createdAt,
    labels: labels as never,
  });
  const attempt = attemptRecord({ runId, fullName, caseId: 'quote', executionIds: [execution.executionId] });
  await store.saveAttempt(attempt);
  await store.createExecution({ ...execution, attemptId: attempt.attemptId });
  const trace = buildNativeTrace({ ...spec, executionId: execution.executionId });
  await store.finishExecution({
    executionId: execution.executionId,
    outcome: 'completed',
    finishedAt: createdAt,
    snapshot: { lifecycle: 'finished' },
    trace,
    evidence: [],
  });
  return execution.executionId;
}

/**
 * Two runs of the same native suite: the baseline listed `shipping_quote` with `weight_kg` only;
 * the current run's `shop` requires a new `zone` and added a `delete_order` tool. The current run
 * has a claude_code execution (server `shop`) and a codex one (server `billing`, which the
 * baseline never listed: not comparable).
 */
export async function seedNativeRuns(store: ExecutionStore): Promise<NativeRuns> {
  const baselineRunId = 'run-native-baseline';
  const runId = 'run-native-current';
  const counts = { passed: 1, failed: 0, skipped: 0, todo: 0 };
  const base = { label: null, status: 'passed' as const, argv: [] };
  await store.saveRun({
    ...base,
    runId: baselineRunId,
    startedAt: '2026-12-01T09:00:00.000Z',
    finishedAt: '2026-12-01T09:05:00.000Z',
    counts,
  });
  const claude: NativeTraceSpec = {
    runtime: 'claude_code',
    session: {
      agentSessionId: '7f3c2a9e-claude-session',
      model: 'claude-sonnet-4-5',
      agent: { name: 'claude-code', version: '2.1.44' },
    },
    usage: {
      inputTokens: 1200,
      outputTokens: 340,
      reasoningTokens: 80,
      totalTokens: 1540,
      cost: 0.0123,
      currency: 'USD',
    },
    tools: [quoteTool],
    reasoning: { visibility: 'encrypted' },
  };
  await saveNative(store, baselineRunId, '2026-12-01T09:01:00.000Z', 'native quotes', claude);
  await store.saveRun({
    ...base,
    runId,
    startedAt: '2026-12-02T09:00:00.000Z',
    finishedAt: '2026-12-02T09:05:00.000Z',
    counts: { ...counts, passed: 2 },
  });
  const changedQuote: JsonObject = {
    ...quoteTool,
    inputSchema: {
      type: 'object',
      properties: { weight_kg: { type: 'number' }, zone: { type: 'string' } },
      required: ['weight_kg', 'zone'],
    },
  };
  const tools = [changedQuote, { name: 'delete_order', inputSchema: { type: 'object' } }];
  const claudeExecutionId = await saveNative(store, runId, '2026-12-02T09:01:00.000Z', 'native quotes', {
    ...claude,
    tools,
  });
  const codexExecutionId = await saveNative(store, runId, '2026-12-02T09:02:00.000Z', 'native quotes (codex)', {
    runtime: 'codex',
    session: null,
    usage: null,
    server: 'billing',
    tools,
    reasoning: { visibility: 'provider_hidden' },
  });
  return { baselineRunId, runId, claudeExecutionId, codexExecutionId };
}
