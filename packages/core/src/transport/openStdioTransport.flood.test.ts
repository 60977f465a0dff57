// A stdio child flooding stdout with lines that are no JSON-RPC messages (contract §22): the trace
// quotes the first lines, counts the rest into one summary per kind, and stays small.
import { join } from 'node:path';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { Redactor } from '../redaction/Redactor';
import { StdioServer } from '../servers/StdioServer';
import { DIAGNOSTICS_SUMMARIZED } from '../trace/TraceRecorder';
import { ObservedTransport } from './ObservedTransport';
import { openTransport } from './openTransport';
import { CONNECTION, setupRecorder } from './transportTest.testkit';

const FLOOD_LINES = 50_000;

jest.setTimeout(60_000);

test('50 000 non-JSON lines cost 20 quoted diagnostics and one summary, redacted, before the close', async () => {
  const { recorder, redactor } = setupRecorder(['s3cr3t-flood-canary']);
  const server = new StdioServer({
    name: 'flooding',
    command: process.execPath,
    args: [join(__dirname, '__fixtures__', 'floodingChild.js')],
    env: { M3_FIXTURE_LINES: String(FLOOD_LINES) },
  });
  const opened = await openTransport(server, { redactor: redactor as Redactor, recorder, connectionId: CONNECTION });
  try {
    const observed = new ObservedTransport(opened.transport, {
      recorder,
      server: 'flooding',
      connectionId: CONNECTION,
    });
    const received = new Promise<JSONRPCMessage>((resolve) => {
      observed.onmessage = resolve;
    });
    await observed.start();
    // The notification comes after every bad line: once it is here, all of them were read.
    expect(await received).toMatchObject({ method: 'notifications/message' });
    await observed.close();
  } finally {
    await opened.reap();
  }
  const trace = recorder.finish('completed');
  const diagnostics = trace.events.filter((e) => e.kind === 'diagnostic').map((e) => e.payload);
  const nonJson = diagnostics.filter((p) => p.code === 'non_json_output');
  expect(nonJson).toHaveLength(21);
  expect(nonJson[0]).toMatchObject({ line: 'log 0: token=[REDACTED]', lineBytes: 33 });
  expect(nonJson[0]!.message).toContain('must write only JSON-RPC messages to stdout (write logs to stderr)');
  expect(nonJson[20]).toMatchObject({
    summarized: true,
    count: FLOOD_LINES + 1,
    summarizedCount: FLOOD_LINES + 1 - 20,
    firstLine: 'log 0: token=[REDACTED]',
    lastLine: '\ufffd\ufffdA',
  });
  expect(diagnostics.filter((p) => p.code === 'malformed_message')).toEqual([
    expect.objectContaining({ line: '{"not":"json-rpc"}' }),
  ]);
  // The summary precedes the close of its connection.
  const kinds = trace.events.map((e) => (e.payload.summarized === true ? 'summary' : e.kind));
  expect(kinds.indexOf('summary')).toBeLessThan(kinds.indexOf('transport.disconnected'));
  expect(trace.events.length).toBeLessThan(40);
  expect(trace.limitations).toContain(DIAGNOSTICS_SUMMARIZED);
  expect(JSON.stringify(trace.events)).not.toContain('s3cr3t-flood-canary');
});
