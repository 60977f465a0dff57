import { agentTurnId, buildAgentTrace } from '@sf-m3/test-utils/trace';

describe('buildAgentTrace', () => {
  const trace = buildAgentTrace({
    turns: [
      { calls: [{ tool: 'quote', arguments: { kg: 2 } }] },
      {
        turnId: 'turn-b',
        calls: [
          { tool: 'quote', arguments: { kg: 3 }, reportedArguments: { kg: 4 } },
          { tool: 'read_file', evidence: 'reported', arguments: { path: 'a' } },
          { tool: 'quote', server: 'other', evidence: 'wire', isError: true },
        ],
      },
    ],
    usage: true,
  });
  const view = trace.view();

  it('projects turns, messages and correlated calls', () => {
    expect(view.runtime.kind).toBe('acp');
    expect(view.summary).toMatchObject({ turnCount: 2, messageCount: 4, toolCallCount: 4, activityHealth: 'mixed' });
    expect(view.summary.usage.state).toBe('observed');
    expect(view.forTurn(agentTurnId(0)).toolCalls.map((c) => c.correlation)).toEqual(['correlated']);
    const second = view.forTurn('turn-b').toolCalls;
    expect(second.map((c) => [c.tool.value, c.server, c.correlation, c.status])).toEqual([
      ['quote', 'example', 'correlated', 'success'],
      ['read_file', 'example', 'reported_only', 'success'],
      ['quote', 'other', 'wire_only', 'tool_error'],
    ]);
    expect(second[0]!.conflicts).toEqual([{ field: 'arguments', reported: { kg: 4 }, wire: { kg: 3 } }]);
    expect(second[2]!.reported.state).toBe('not_emitted');
    expect(view.messages.map((m) => m.text)).toEqual(['prompt 1', 'done', 'prompt 2', 'done']);
  });
});
