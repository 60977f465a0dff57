import { Redactor } from '../../redaction/Redactor';
import { normalizeToolPolicy } from '../../proxy/toolPolicy';
import { TraceRecorder } from '../../trace/TraceRecorder';
import { registerAcpClientRequests } from './acpClientRequests';
import type { AcpClientApp, AcpHandlerContext } from './acpSdk';

/** The permission handler the kit registers, called directly with a request's params. */
function permissionHandler(tools: string[] | undefined) {
  const recorder = new TraceRecorder({ executionId: 'exec-1', redactor: new Redactor() });
  const handlers = new Map<string, (ctx: AcpHandlerContext) => unknown>();
  const app = {
    onRequest(method: string, handler: (ctx: AcpHandlerContext) => unknown) {
      handlers.set(method, handler);
      return app;
    },
  } as unknown as AcpClientApp;
  const policies = new Map([['example', normalizeToolPolicy('example', tools, ['example'])]]);
  registerAcpClientRequests(app, {
    recorder,
    policies,
    fileSystem: {},
    RequestError: class extends Error {
      constructor(
        readonly code: number,
        message: string,
      ) {
        super(message);
      }
    },
    connectionId: 'conn-1',
    scope: () => ({ sessionId: 's', turnId: 't' }),
  });
  const ask = (title: string, options: object[]) => {
    const result = handlers.get('session/request_permission')!({
      method: 'session/request_permission',
      params: { sessionId: 'a', toolCall: { toolCallId: 'c1', title }, options },
      signal: new AbortController().signal,
      requestId: 0,
    });
    const response = recorder.events.filter((e) => e.kind === 'permission.response').at(-1)!;
    return { result, decision: response.payload.decision, reason: response.payload.reason };
  };
  return ask;
}

const allowAndReject = [
  { optionId: 'allow', kind: 'allow_once', name: 'Allow' },
  { optionId: 'reject', kind: 'reject_once', name: 'Reject' },
];

describe('session/request_permission answers', () => {
  it('grants an allowed MCP tool with the first allow option', () => {
    expect(permissionHandler(undefined)('example:shipping_quote', allowAndReject)).toEqual({
      result: { outcome: { outcome: 'selected', optionId: 'allow' } },
      decision: 'allowed',
      reason: 'tool policy allows it',
    });
  });

  it('its recorded reason agrees with the decision when the agent offers no allow option', () => {
    const ask = permissionHandler(undefined);
    expect(ask('example:shipping_quote', [allowAndReject[1]!])).toEqual({
      result: { outcome: { outcome: 'cancelled' } },
      decision: 'denied',
      reason: 'tool policy allows it, but the agent offered no allow option',
    });
  });

  it('denies a tool the policy denies, and a tool of no server of the test', () => {
    expect(permissionHandler([])('example:shipping_quote', allowAndReject)).toMatchObject({
      decision: 'denied',
      reason: 'tool policy denies it',
    });
    expect(permissionHandler(undefined)('Read file notes.txt', allowAndReject)).toMatchObject({
      decision: 'denied',
      reason: 'not an MCP tool of this test',
    });
  });
});
