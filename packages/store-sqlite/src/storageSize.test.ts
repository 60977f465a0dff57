import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createExampleServer, exampleServerBin } from '@sf-m3/example-servers';
import { CallTool, InProcessServer, MCPTestKit, type ServerDefinition, StdioServer } from '@sf-m3/core';
import { FakeChatCompletionsServer } from '../../core/src/testing/FakeChatCompletionsServer';
import { SQLiteExecutionStore } from './SQLiteExecutionStore';

// Bytes on disk per execution, measured on real executions through the kit: the growth of the
// file (WAL checkpointed by the closing store) between a warm-up batch and a second batch, so the
// empty schema's pages do not count. Issue 11 item 9: schema 1 took ~28 KB per direct execution.
const TARGET_DIRECT_BYTES = 8 * 1024;
/**
 * Executions of the warm-up batch: enough for every table and index to have taken its first rows
 * (the growth after it is the measured executions' own), far fewer than the measured batch, so a
 * stdio execution's server process is not started twice per measured execution.
 */
const WARM_UP = 3;

async function grow(path: string, count: number, work: (kit: MCPTestKit, i: number) => Promise<unknown>) {
  const store = new SQLiteExecutionStore(path);
  const kit = new MCPTestKit({ store, runId: `run-${'5'.repeat(32)}`, suiteName: 'storage', caseId: 'size' });
  for (let i = 0; i < count; i += 1) await work(kit, i);
  await kit.close();
  await store.close();
  return statSync(path).size;
}

/** Bytes per execution: file growth over `count` executions after WARM_UP warm-up ones. */
async function bytesPerExecution(count: number, work: (kit: MCPTestKit, i: number) => Promise<unknown>) {
  const path = join(mkdtempSync(join(tmpdir(), 'm3-sqlite-size-')), 'executions.sqlite');
  const warm = await grow(path, WARM_UP, work);
  const full = await grow(path, count, (kit, i) => work(kit, WARM_UP + i));
  return Math.round((full - warm) / count);
}

const quote = (server: ServerDefinition) => (kit: MCPTestKit, i: number) =>
  kit.run(new CallTool({ server, tool: 'shipping_quote', arguments: { weight_kg: 1 + (i % 40), zone: 'local' } }));

describe('storage per execution', () => {
  jest.setTimeout(600_000);

  it(`keeps a direct execution within ${TARGET_DIRECT_BYTES} bytes (in-process and stdio servers)`, async () => {
    const inProcess = await bytesPerExecution(
      100,
      quote(new InProcessServer({ name: 'example', factory: createExampleServer })),
    );
    const stdio = await bytesPerExecution(
      12,
      quote(new StdioServer({ name: 'example', command: process.execPath, args: [exampleServerBin] })),
    );
    process.stdout.write(
      `storage: ${inProcess} bytes per direct execution (in-process), ${stdio} (stdio); target <= ${TARGET_DIRECT_BYTES}\n`,
    );
    expect(inProcess).toBeLessThanOrEqual(TARGET_DIRECT_BYTES);
    expect(stdio).toBeLessThanOrEqual(TARGET_DIRECT_BYTES);
  });

  it('reports the bytes of an agent execution (one turn, one tool call, openai harness on a fake model)', async () => {
    const fake = new FakeChatCompletionsServer();
    const { baseUrl } = await fake.start();
    const example = new InProcessServer({ name: 'example', factory: createExampleServer });
    try {
      const agentBytes = await bytesPerExecution(15, async (kit, i) => {
        fake.enqueue(
          { toolCalls: [{ id: `call_${i}`, name: 'example__normalize_customer', arguments: { name: `ada ${i}` } }] },
          { content: `done ${i}` },
        );
        const [agent] = kit.agents([{ harness: 'openai', model: 'fake-model', baseUrl, auth: 'none' }]);
        const result = await agent!.run('Normalize Ada', { servers: [example] });
        expect(result.snapshot.outcome).toBe('completed');
      });
      process.stdout.write(`storage: ${agentBytes} bytes per agent execution (openai harness, one tool call)\n`);
      expect(agentBytes).toBeGreaterThan(0);
    } finally {
      await fake.close();
    }
  });
});
