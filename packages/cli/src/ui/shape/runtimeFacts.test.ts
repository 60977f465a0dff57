import type { ContentBlock, TraceViewData } from '@sf-m3/core';
import { projectTraceView } from '../../../../core/src/trace/projection/projectTraceView';
import { buildDirectTrace } from '@sf-m3/test-utils/trace';
import { buildNativeTrace, type NativeTraceSpec } from '../nativeRuns.testkit';
import { reasoningText } from './reasoningText';
import { runtimeFacts } from './runtimeFacts';

const view = (spec: NativeTraceSpec): TraceViewData => projectTraceView(buildNativeTrace(spec).toJSON());

/** `key: value` when observed, `key: <state> (<reason>)` otherwise. */
const shown = (data: TraceViewData): string[] =>
  runtimeFacts(data.runtime, data.summary.usage).map(({ key, obs }) =>
    obs.state === 'observed' ? `${key}: ${obs.value}` : `${key}: ${obs.state} (${obs.reason})`,
  );

describe('runtimeFacts', () => {
  test('an agent runtime shows the MCP revision and era it settled on with each server', () => {
    const data = view({ runtime: 'codex', session: null, usage: null, tools: [], reasoning: { text: '' } });
    const withServers: TraceViewData = {
      ...data,
      runtime: {
        ...(data.runtime as Extract<
          TraceViewData['runtime'],
          { kind: 'acp' | 'openai' | 'claude_code' | 'codex' | 'opencode' | 'pi' }
        >),
        mcpServers: {
          state: 'observed',
          value: [
            { server: 'shop', protocolVersion: '2026-07-28', era: 'modern' },
            { server: 'legacy-shop', protocolVersion: '2025-11-25', era: 'legacy' },
          ],
        },
      },
    };
    expect(shown(withServers)).toEqual(
      expect.arrayContaining(['mcp:shop: 2026-07-28 (modern)', 'mcp:legacy-shop: 2025-11-25 (legacy)']),
    );
    expect(shown(data).some((fact) => fact.startsWith('mcp:'))).toBe(false);
  });

  test('a claude_code trace shows the CLI’s name and version, its session id, the model and the usage', () => {
    const data = view({
      runtime: 'claude_code',
      session: {
        agentSessionId: 'sess-9',
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
      tools: [],
      reasoning: { text: 'thinking' },
    });
    expect(shown(data)).toEqual([
      'kind: claude_code',
      'agentName: claude-code',
      'agentVersion: 2.1.44',
      'sessionId: sess-9',
      'model: claude-sonnet-4-5',
      'protocolVersion: unsupported (harness_unsupported)',
      'inputTokens: 1,200',
      'outputTokens: 340',
      'reasoningTokens: 80',
      'totalTokens: 1,540',
      'cost: 0.0123',
      'currency: USD',
    ]);
  });

  test('what a codex CLI did not report keeps its state: no session, no version, no usage', () => {
    const noSession = view({ runtime: 'codex', session: null, usage: null, tools: [], reasoning: { text: '' } });
    expect(shown(noSession)).toEqual([
      'kind: codex',
      'agentName: not_emitted (provider_did_not_emit)',
      'agentVersion: not_emitted (provider_did_not_emit)',
      'sessionId: not_emitted (provider_did_not_emit)',
      'model: not_emitted (provider_did_not_emit)',
      'protocolVersion: unsupported (harness_unsupported)',
      'usage: not_emitted (provider_did_not_emit)',
    ]);
    const partial = view({
      runtime: 'pi',
      session: { agentSessionId: 't-1', agent: { name: 'pi' } },
      usage: { inputTokens: 10, outputTokens: 0 },
      tools: [],
      reasoning: { text: '' },
    });
    expect(shown(partial)).toEqual([
      'kind: pi',
      'agentName: pi',
      'agentVersion: not_emitted (provider_did_not_emit)',
      'sessionId: t-1',
      'model: not_emitted (provider_did_not_emit)',
      'protocolVersion: unsupported (harness_unsupported)',
      'inputTokens: 10',
      'outputTokens: 0',
      'reasoningTokens: not_emitted (provider_did_not_emit)',
      'totalTokens: not_emitted (provider_did_not_emit)',
      'cost: not_emitted (provider_did_not_emit)',
      'currency: not_emitted (provider_did_not_emit)',
    ]);
  });

  test('a direct connection shows its transport and server; usage does not apply', () => {
    const data = projectTraceView(buildDirectTrace().toJSON());
    const facts = shown(data);
    expect(facts[0]).toBe('kind: direct');
    expect(facts).toContain('transport: stdio');
    expect(facts.at(-1)).toBe('usage: unsupported (transport_not_applicable)');
  });
});

describe('reasoningText', () => {
  const reasoningOf = (data: TraceViewData) => {
    const entry = data.timeline.find((e) => e.kind === 'reasoning');
    if (entry?.kind !== 'reasoning') throw new Error('the trace has no reasoning entry');
    return reasoningText(entry.content);
  };
  const spec = { runtime: 'claude_code', session: null, usage: null, tools: [] } as const;

  test('encrypted and provider-hidden reasoning keep their state and carry no text', () => {
    expect(reasoningOf(view({ ...spec, reasoning: { visibility: 'encrypted' } }))).toEqual({
      text: null,
      state: 'encrypted',
      reason: 'provider_encrypted',
      opaqueBlocks: [],
    });
    expect(reasoningOf(view({ ...spec, reasoning: { visibility: 'provider_hidden' } }))).toMatchObject({
      text: null,
      state: 'provider_hidden',
    });
  });

  test('visible reasoning is its text; blocks without text are kept apart', () => {
    expect(reasoningOf(view({ ...spec, reasoning: { text: 'weigh first' } }))).toEqual({
      text: 'weigh first',
      state: 'observed',
      reason: null,
      opaqueBlocks: [],
    });
    const mixed = reasoningText({
      state: 'observed',
      value: [
        { type: 'text', text: 'a' },
        // A provider block outside MCP's ContentBlock union still reaches the view untyped.
        { type: 'signature', data: 'xyz' } as unknown as ContentBlock,
      ],
    });
    expect(mixed).toMatchObject({ text: 'a', opaqueBlocks: [{ type: 'signature', data: 'xyz' }] });
  });
});
