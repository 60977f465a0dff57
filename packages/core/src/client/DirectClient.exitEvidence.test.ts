// A server process that ends before answering: the error names the exit code or signal and the
// last lines of its redacted stderr; the SDK's stdio buffer limit is named as such (issue 10 item 6).
import { join } from 'node:path';
import { TransportError } from '../errors';
import { MCPTestKit } from '../kit/MCPTestKit';
import { secretFromEnv } from '../redaction/SecretRef';
import { StdioServer } from '../servers/StdioServer';
import { rejection, waitForExit } from '@sf-m3/test-utils/client';

const DYING = join(__dirname, '__fixtures__', 'dying-server.js');
const TOKEN = 'fixture-token-4d1f0a7c9e';

const dying = (mode: string): StdioServer =>
  new StdioServer({
    name: 'dying',
    command: process.execPath,
    args: [DYING, mode],
    env: { FIXTURE_TOKEN: secretFromEnv('M3_EXIT_EVIDENCE_TOKEN') },
  });

let kit: MCPTestKit;
beforeAll(() => {
  process.env.M3_EXIT_EVIDENCE_TOKEN = TOKEN;
});
afterAll(() => {
  delete process.env.M3_EXIT_EVIDENCE_TOKEN;
});
beforeEach(() => {
  kit = new MCPTestKit();
});
afterEach(async () => {
  await kit.close();
});

async function crashError(mode: string): Promise<TransportError> {
  const client = await kit.direct(dying(mode), { timeoutMs: 30_000 }).connect();
  expect((await client.callTool('ok')).isError).toBe(false);
  const error = await rejection(client.callTool('crash'));
  expect(error).toBeInstanceOf(TransportError);
  await client.close();
  expect(client.result.snapshot.outcome).toBe('failed');
  return error as TransportError;
}

describe('a server process that ends before answering', () => {
  test('exit code and last stderr are in the message', async () => {
    const error = await crashError('code');
    expect(error.message).toBe(
      'MCP transport operation failed: tools/call: the server process exited with code 3 before answering ' +
        'tools/call (last stderr: "starting\\nboom: db missing")',
    );
    expect(error.details).toMatchObject({ operation: 'tools/call', exitCode: 3, signal: null });
  }, 60_000);

  test('a signal is named', async () => {
    const error = await crashError('signal');
    expect(error.message).toBe(
      'MCP transport operation failed: tools/call: the server process was killed by signal SIGKILL before ' +
        'answering tools/call (no stderr output)',
    );
    expect(error.details).toMatchObject({ exitCode: null, signal: 'SIGKILL' });
  }, 60_000);

  test('only the last 5 stderr lines are quoted, redacted', async () => {
    const error = await crashError('chatty');
    expect(error.message).toContain('exited with code 5 before answering tools/call');
    expect(error.message).toContain(
      '(last stderr: "line 16\\nline 17\\nline 18\\nline 19 token=[REDACTED]\\nline 20")',
    );
    expect(error.message).not.toContain(TOKEN);
    expect(error.message).not.toContain('line 15');
  }, 60_000);

  test('a server that exits before answering initialize says so from connect()', async () => {
    const client = kit.direct(dying('no-initialize'), { timeoutMs: 30_000 });
    const error = await rejection(client.connect());
    expect(error).toBeInstanceOf(TransportError);
    expect(error.message).toBe(
      'MCP transport operation failed: initialize: the server process exited with code 4 before answering ' +
        'initialize (last stderr: "loading config\\nfatal: config.json missing")',
    );
  }, 60_000);

  test("a frame over the SDK's stdio buffer limit is named as that, not as a server exit", async () => {
    const client = await kit.direct(dying('huge'), { timeoutMs: 30_000 }).connect();
    const pid = client.trace.events.find((e) => e.kind === 'process.started')!.payload.pid as number;
    const error = await rejection(client.callTool('crash'));
    expect(error).toBeInstanceOf(TransportError);
    expect(error.message).toMatch(
      /^MCP transport operation failed: tools\/call: a message from the server exceeded the SDK's stdio buffer limit \(10485760 bytes/,
    );
    expect(error.message).not.toMatch(/exited|did the server exit/);
    expect((error as TransportError).details).toMatchObject({ sdkBufferLimitBytes: 10 * 1024 * 1024 });
    await client.close();
    expect(await waitForExit(pid)).toBe(true);
  }, 60_000);
});
