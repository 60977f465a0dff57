import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createExampleServer } from '@sf-m3/example-servers';
import { CallTool, InProcessServer, MCPTestKit } from '@sf-m3/core';
import { SQLiteExecutionStore } from './SQLiteExecutionStore';

const example = new InProcessServer({ name: 'example', factory: createExampleServer });

describe('a kit with a SQLiteExecutionStore', () => {
  it('saves every finished execution and reopens it from a new store on the same file', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'm3-kit-sqlite-')), 'results', 'executions.sqlite');
    const store = new SQLiteExecutionStore(path);
    const kit = new MCPTestKit({ store, runId: `run-${'1'.repeat(32)}`, suiteName: 'kit-suite', caseId: 'quote' });
    const result = await kit.run(
      new CallTool({ server: example, tool: 'shipping_quote', arguments: { weight_kg: 2, zone: 'local' } }),
    );
    const client = await kit.direct(example).connect();
    await client.callTool('shipping_quote', { weight_kg: 3, zone: 'local' });
    await client.close();
    const evaluation = await kit.evaluate(result, 'm3.execution.completed.v1');
    expect(evaluation.status).toBe('passed');

    // The kit reads back through its store.
    expect((await kit.getTraceView(result.executionId)).toJSON()).toEqual(result.traceView.toJSON());
    await kit.close();
    await store.close();

    const reopened = new SQLiteExecutionStore(path);
    for (const executionId of [result.executionId, client.executionId]) {
      const record = await reopened.getExecution(executionId);
      expect(record).toMatchObject({ outcome: 'completed', suiteName: 'kit-suite', caseId: 'quote' });
    }
    const view = await reopened.getTraceView(result.executionId);
    expect(view.toJSON()).toEqual(result.traceView.toJSON());
    expect(view.toolCalls).toHaveLength(1);
    const rawRefs = result.trace.events.flatMap((e) => (e.rawEvidence ? [e.rawEvidence] : []));
    expect(rawRefs.length).toBeGreaterThan(0);
    for (const ref of rawRefs) {
      await expect(reopened.readRawEvidence(ref)).resolves.toMatchObject({ sizeBytes: ref.sizeBytes });
    }
    const report = await reopened.aggregateEvaluations({
      filters: { evaluator: ['m3.execution.completed.v1'] },
      groupBy: ['caseId'],
    });
    expect(report.totals).toMatchObject({ evaluationCount: 1, passedCount: 1, executionCount: 1 });
    expect(report.groups.map((g) => g.key)).toEqual([{ caseId: 'quote' }]);
    await reopened.close();
    expect(readFileSync(path).subarray(0, 15).toString()).toBe('SQLite format 3');
  });
});
