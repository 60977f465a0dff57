// Issue 27: a failed direct execution stores why — the decisive error and every exception that
// escaped an operation — in its saved snapshot, so the viewer and reports can show the reason (and
// tell an operation a passing test expected to raise from a broken connection) without the trace.
import { M3Error } from '../errors';
import { InProcessServer } from '../servers/InProcessServer';
import { createFeatureServer, createPagedServer, rejection, useKitPerTest } from '@sf-m3/test-utils/client';

const kit = useKitPerTest({ suiteName: 'direct-client', caseId: 'case-1' });

const paged = (): InProcessServer => new InProcessServer({ name: 'paged', factory: () => createPagedServer('ok') });
const featured = (): InProcessServer => new InProcessServer({ name: 'feature', factory: () => createFeatureServer() });

test('a schema refusal and a protocol error are stored as the reason and as operation errors, in order', async () => {
  const client = await kit().direct(paged(), { validateSchemas: true }).connect();
  const refusal = (await rejection(client.callTool('count', { n: 0 }))) as M3Error;
  const protocol = (await rejection(client.getPrompt('no-such-prompt'))) as M3Error;
  await client.close();
  const record = await kit().store.getExecution(client.executionId);
  expect(record.outcome).toBe('failed');
  expect(record.snapshot.error).toEqual({ code: refusal.code, message: refusal.message, details: expect.any(Object) });
  expect(record.snapshot.operationErrors).toEqual([
    { code: refusal.code, message: refusal.message },
    { code: protocol.code, message: protocol.message },
  ]);
  expect(record.snapshot.operationErrorCount).toBe(2);
  expect(client.result?.error).toEqual(record.snapshot.error);
});

test('listAllResources on a server without resources: the refusal is the stored reason', async () => {
  const client = await kit().direct(featured()).connect();
  const error = (await rejection(client.listAllResources())) as M3Error;
  await client.close();
  const record = await kit().store.getExecution(client.executionId);
  expect(record.outcome).toBe('failed');
  expect(record.snapshot).toMatchObject({
    outcome: 'failed',
    error: { code: error.code, message: error.message },
    operationErrors: [{ code: error.code, message: error.message }],
  });
});

test('a completed execution stores no error and no operation errors', async () => {
  const client = await kit().direct(paged()).connect();
  await client.listAllTools();
  await client.close();
  const record = await kit().store.getExecution(client.executionId);
  expect(record.outcome).toBe('completed');
  expect(record.snapshot).not.toHaveProperty('error');
  expect(record.snapshot).not.toHaveProperty('operationErrors');
});
