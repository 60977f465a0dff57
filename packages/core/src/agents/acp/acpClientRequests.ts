import { isObject, type JsonObject } from '../../json';
import { isToolAllowed, type ProxyToolPolicy } from '../../proxy/toolPolicy';
import type { TraceRecorder } from '../../trace/TraceRecorder';
import type { AcpFileSystemHandlers } from './acpOptions';
import type { AcpClientApp, AcpHandlerContext, AcpRequestErrorClass } from './acpSdk';
import { acpToolIdentity } from './acpToolIdentity';

/** JSON-RPC code of a client request the kit does not serve (method not found). */
const NOT_SERVED = -32601;

/** What the handlers need from the driver. */
export interface AcpClientRequestContext {
  readonly recorder: TraceRecorder;
  readonly policies: ReadonlyMap<string, ProxyToolPolicy>;
  readonly fileSystem: AcpFileSystemHandlers;
  readonly RequestError: AcpRequestErrorClass;
  readonly connectionId: string;
  readonly scope: () => { sessionId: string; turnId?: string };
}

/** The option a permission is granted with: the first `allow_*` one (else one named `allow_once`). */
function allowOption(options: unknown): string | undefined {
  const list = Array.isArray(options) ? options.filter(isObject) : [];
  const allow = list.find((o) => typeof o.kind === 'string' && o.kind.startsWith('allow'));
  const id = allow?.optionId ?? list.find((o) => o.optionId === 'allow_once')?.optionId;
  return typeof id === 'string' ? id : undefined;
}

/**
 * Registers the kit's answers to agent → client requests: `session/request_permission` from the
 * test's tool policy (an allowed MCP tool gets the first `allow_*` option; a denied or serverless
 * tool gets `cancelled`), recorded as `permission.request` / `permission.response`;
 * `fs/read_text_file` / `fs/write_text_file` through the selection's `fileSystem` handlers, else
 * refused; `terminal/*`, elicitation and anything else refused with an error naming why.
 */
export function registerAcpClientRequests(app: AcpClientApp, c: AcpClientRequestContext): AcpClientApp {
  const refuse = (method: string, why: string, kind: string): never => {
    c.recorder.record('provider.event', {
      ...c.scope(),
      phase: 'turn',
      origin: 'normalized',
      payload: { category: 'acp_client_request', method, outcome: 'refused', kind },
    });
    throw new c.RequestError(NOT_SERVED, why, { code: 'acp_interaction_required', kind });
  };

  app.onRequest('session/request_permission', (ctx: AcpHandlerContext) => {
    const params = isObject(ctx.params) ? ctx.params : {};
    const toolCall = isObject(params.toolCall) ? params.toolCall : {};
    const title = typeof toolCall.title === 'string' ? toolCall.title : '';
    const identity = acpToolIdentity(title, [...c.policies.keys()]);
    const policy = identity.server !== null ? c.policies.get(identity.server) : undefined;
    const allowed = policy !== undefined && isToolAllowed(policy, identity.tool);
    const optionId = allowed ? allowOption(params.options) : undefined;
    const fields = {
      ...c.scope(),
      phase: 'turn' as const,
      origin: 'normalized' as const,
      connectionId: c.connectionId,
      ...(ctx.requestId !== undefined && ctx.requestId !== null && { jsonrpcId: ctx.requestId }),
      ...(identity.server !== null && { server: identity.server }),
    };
    c.recorder.record('permission.request', {
      ...fields,
      direction: 'harness_to_sdk',
      payload: { method: 'session/request_permission', params: params as JsonObject },
    });
    const result =
      optionId !== undefined ? { outcome: { outcome: 'selected', optionId } } : { outcome: { outcome: 'cancelled' } };
    c.recorder.record('permission.response', {
      ...fields,
      direction: 'sdk_to_harness',
      payload: {
        method: 'session/request_permission',
        result,
        decision: optionId !== undefined ? 'allowed' : 'denied',
        reason:
          optionId !== undefined
            ? 'tool policy allows it'
            : allowed
              ? 'tool policy allows it, but the agent offered no allow option'
              : identity.server === null
                ? 'not an MCP tool of this test'
                : 'tool policy denies it',
      },
    });
    return result;
  });

  app.onRequest('fs/read_text_file', async (ctx: AcpHandlerContext) => {
    const read = c.fileSystem.readTextFile;
    const params = isObject(ctx.params) ? ctx.params : {};
    if (read === undefined) {
      return refuse(
        'fs/read_text_file',
        'the kit does not serve fs/read_text_file: give the acp selection fileSystem: { readTextFile }',
        'filesystem',
      );
    }
    return { content: await read(String(params.path ?? '')) };
  });

  app.onRequest('fs/write_text_file', async (ctx: AcpHandlerContext) => {
    const write = c.fileSystem.writeTextFile;
    const params = isObject(ctx.params) ? ctx.params : {};
    if (write === undefined) {
      return refuse(
        'fs/write_text_file',
        'the kit does not serve fs/write_text_file: give the acp selection fileSystem: { writeTextFile }',
        'filesystem',
      );
    }
    await write(String(params.path ?? ''), String(params.content ?? ''));
    return {};
  });

  for (const method of [
    'terminal/create',
    'terminal/output',
    'terminal/wait_for_exit',
    'terminal/release',
    'terminal/kill',
  ]) {
    app.onRequest(method, () =>
      refuse(method, `the kit does not serve ${method}: acp agents get no terminal in sf-m3`, 'terminal'),
    );
  }
  app.onRequest('elicitation/create', () =>
    refuse(
      'elicitation/create',
      'the kit does not answer elicitation from acp agents (it fails closed)',
      'elicitation',
    ),
  );
  app.onRequest('*', (ctx: AcpHandlerContext) =>
    refuse(ctx.method, `the kit does not serve ${ctx.method} for acp agents`, 'unsupported'),
  );
  return app;
}
