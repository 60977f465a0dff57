// SQLite is an opt-in store: executions saved there reopen by id, identical, from a new connection.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CallTool, MCPTestKit, SQLiteExecutionStore } from 'sf-m3';
import { exampleServer } from './servers';

describe.m3('sqlite reopen', () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sf-m3-example-'));
  afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

  test('a trace view reopened from the file equals the original', async () => {
    const file = path.join(folder, 'history.sqlite');
    const kit = new MCPTestKit({ store: new SQLiteExecutionStore(file) });
    const result = await kit.run(
      new CallTool({ server: exampleServer, tool: 'shipping_quote', arguments: { weight_kg: 2, zone: 'local' } }),
    );
    await kit.close();

    const reopened = new SQLiteExecutionStore(file);
    try {
      const view = await reopened.getTraceView(result.executionId);
      expect(view.toJSON()).toEqual(result.traceView.toJSON());
      expect(view.outcome).toBe('completed');
    } finally {
      await reopened.close();
    }
  });
});
