// The HTTP reverse proxy's tool policy is the stdio capture proxy's own (proxy/toolPolicyCheck.js),
// not a copy of it: whatever that script decides and answers, policyDecision decides and answers.
import { dirname, join } from 'node:path';
import { captureProxyScriptPath } from '../../proxy/buildProxyCommand';
import type { ProxyToolPolicy } from '../../proxy/toolPolicy';

const scriptPath = join(dirname(captureProxyScriptPath), 'toolPolicyCheck.js');
const call = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'quote', arguments: {} } };

type PolicyDecision = typeof import('./policyDecision');

describe('policyDecision', () => {
  it('judges and answers as the capture proxy does: allowlist verdicts and the -32001 denial', () => {
    const { judgeToolCall, denialResponse } = jest.requireActual<PolicyDecision>('./policyDecision');
    const allowlist: ProxyToolPolicy = { mode: 'allowlist', tools: ['track'] };

    expect(judgeToolCall({ mode: 'allow_all' }, call)).toEqual({
      tool: 'quote',
      decision: 'allowed',
      reason: 'all tools allowed',
    });
    expect(judgeToolCall(allowlist, { ...call, params: { name: 'track' } })?.decision).toBe('allowed');
    expect(judgeToolCall(allowlist, { jsonrpc: '2.0', id: 8, method: 'tools/list' })).toBeUndefined();
    const verdict = judgeToolCall(allowlist, call)!;
    expect(verdict).toEqual({ tool: 'quote', decision: 'denied', reason: 'not in the allowlist' });
    expect(denialResponse('shipping', 7, verdict)).toEqual({
      jsonrpc: '2.0',
      id: 7,
      error: {
        code: -32001,
        message: "MCP tool call 'shipping:quote' was denied by this test's tool policy (not in the allowlist)",
        data: { server: 'shipping', tool: 'quote', reason: 'not in the allowlist' },
      },
    });
  });

  it('takes its rule and its denial from proxy/toolPolicyCheck.js itself, so the two cannot drift', () => {
    const changed = {
      createToolPolicyCheck: (_policy: ProxyToolPolicy, serverName: string) => ({
        decide: (m: { params?: { name?: string } }) => ({
          tool: m.params?.name ?? null,
          decision: 'denied',
          reason: 'changed in the script',
        }),
        denialError: (m: { id: unknown }, d: { reason: string }) => ({
          jsonrpc: '2.0',
          id: m.id,
          error: { code: -32099, message: `${serverName}: ${d.reason}` },
        }),
      }),
    };
    jest.isolateModules(() => {
      jest.doMock(scriptPath, () => changed);
      const { judgeToolCall, denialResponse } = require('./policyDecision') as PolicyDecision;
      const verdict = judgeToolCall({ mode: 'allow_all' }, call)!;
      expect(verdict).toEqual({ tool: 'quote', decision: 'denied', reason: 'changed in the script' });
      expect(denialResponse('shipping', 7, verdict)).toEqual({
        jsonrpc: '2.0',
        id: 7,
        error: { code: -32099, message: 'shipping: changed in the script' },
      });
    });
    jest.dontMock(scriptPath);
  });
});
