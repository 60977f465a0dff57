import { InMemoryExecutionStore, Redactor, type ToolCallEntry } from '@sf-m3/core';
import { collectReportData } from '../../report/html/collectReportData';
import { seedNativeRuns } from '../nativeRuns.testkit';
import { apiPaths } from './apiPaths';
import type { RunPage } from './runPage';
import { ViewerApi } from './ViewerApi';

async function seeded() {
  const store = new InMemoryExecutionStore();
  const ids = await seedNativeRuns(store);
  const api = new ViewerApi(store, { redactor: new Redactor([]), resultsDb: 'mem', cwd: '/' });
  return { store, api, ids };
}

describe('the viewer api on native agent runs', () => {
  test('the run view carries the tool-catalog changes against the run before it', async () => {
    const { api, store, ids } = await seeded();
    const run = await api.run(ids.runId);
    expect(run.summary.baseline?.baselineRunId).toBe(ids.baselineRunId);
    const changes = run.summary.baseline!.interfaceChanges;
    expect(changes.compared).toBe(1);
    expect(changes.notComparable).toEqual([{ suiteName: 'native', server: 'billing', seenIn: 'current' }]);
    expect(changes.changes.map((c) => [c.server, c.tool, c.change, c.fields])).toEqual([
      ['shop', 'delete_order', 'added', []],
      ['shop', 'shipping_quote', 'changed', ['inputSchema']],
    ]);
    expect(changes.changes[1]!.differences).toEqual([
      { path: '$.inputSchema.properties.zone', change: 'added', before: null, after: { type: 'string' } },
      { path: '$.inputSchema.required', change: 'added', before: null, after: 'zone' },
    ]);
    // The baseline itself has no earlier run: nothing to compare, and it says so.
    const first = await api.run(ids.baselineRunId);
    expect(first.summary.baseline).toBeNull();
    await store.close();
  });

  test('the static report embeds the same run answer, interface changes included', async () => {
    const { api, store, ids } = await seeded();
    const responses = await collectReportData(api, ids.runId);
    const run = responses[apiPaths.run(ids.runId)] as RunPage;
    expect(run.summary.baseline?.interfaceChanges.changes).toHaveLength(2);
    expect(responses[apiPaths.execution(ids.codexExecutionId)]).toBeDefined();
    await store.close();
  });

  test('an execution answer carries the native runtime, the usage, the denied call and the turn conflict', async () => {
    const { api, store, ids } = await seeded();
    const page = await api.execution(ids.claudeExecutionId);
    expect(page.trace?.runtime).toMatchObject({
      kind: 'claude_code',
      sessionId: { state: 'observed', value: '7f3c2a9e-claude-session' },
      agent: { state: 'observed', value: { name: 'claude-code', version: '2.1.44' } },
      model: { state: 'observed', value: 'claude-sonnet-4-5' },
    });
    expect(page.trace?.summary.usage).toMatchObject({ state: 'observed', value: { cost: 0.0123, currency: 'USD' } });
    const calls = page.trace!.timeline.filter((e): e is ToolCallEntry => e.kind === 'tool_call');
    expect(calls.map((c) => [c.policy?.decision, c.conflicts.map((x) => x.field)])).toEqual([
      ['allowed', ['turn']],
      ['denied', []],
    ]);
    const codex = await api.execution(ids.codexExecutionId);
    expect(codex.trace?.runtime).toMatchObject({ kind: 'codex', sessionId: { state: 'not_emitted' } });
    expect(codex.trace?.summary.usage.state).toBe('not_emitted');
    await store.close();
  });
});
