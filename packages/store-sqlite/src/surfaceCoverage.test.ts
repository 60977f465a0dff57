// Surface evidence survives the SQLite store (contract §25): the finished snapshot keeps `surface`,
// a new store on the same file reads it back, and the run's coverage is merged from what it reads.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createExampleServer } from '@sf-m3/example-servers';
import { collectRunSurfaceCoverage, InProcessServer, MCPTestKit } from '@sf-m3/core';
import { SQLiteExecutionStore } from './SQLiteExecutionStore';

const example = new InProcessServer({ name: 'example', factory: createExampleServer });
const RUN = `run-${'7'.repeat(32)}`;

describe('surface coverage in a SQLite store', () => {
  it('round-trips each execution snapshot surface and merges the run from a reopened store', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'm3-surface-sqlite-')), 'results.db');
    const store = new SQLiteExecutionStore(path);
    const kit = new MCPTestKit({ store, runId: RUN });
    const listing = await kit.direct(example).connect();
    await listing.listAllTools();
    await listing.close();
    const calling = await kit.direct(example).connect();
    await calling.callTool('shipping_quote', { weight_kg: 2, zone: 'international' });
    await calling.callTool('always_fails');
    await calling.close();
    const silent = await kit.direct(example).connect();
    await silent.close();
    await kit.close();
    await store.close();

    const reopened = new SQLiteExecutionStore(path);
    const stored = await reopened.getExecution(calling.executionId);
    expect(stored.snapshot.surface).toEqual({
      example: expect.objectContaining({
        tools: {
          shipping_quote: {
            calls: 1,
            successes: 1,
            propertiesUsed: ['weight_kg', 'zone'],
            valuesUsed: { weight_kg: [2], zone: ['international'] },
          },
          always_fails: { calls: 1, successes: 0, propertiesUsed: [], valuesUsed: {} },
        },
      }),
    });
    const coverage = await collectRunSurfaceCoverage(reopened, RUN);
    await reopened.close();
    const [server] = coverage.servers;
    expect(server!.listed.tools).toBe(true);
    expect(server!.measures.tools).toMatchObject({ covered: 2, total: 9 });
    expect(server!.measures.toolsSucceeded).toMatchObject({ covered: 1, total: 9 });
    expect(server!.neverSucceeded).toEqual(['always_fails']);
    expect(server!.measures.enums).toMatchObject({ covered: 1, total: 3 });
  });
});
