// The stdio capture proxy (plain JS, packages/core/proxy/toolPolicyCheck.js) and the HTTP reverse
// proxy (agents/wire/policyDecision.ts) enforce one tool policy: same verdicts, same denial bytes.
import { dirname, join } from 'node:path';
import { denialResponse, judgeToolCall } from '../agents/wire/policyDecision';
import { captureProxyScriptPath } from './buildProxyCommand';
import type { ProxyToolPolicy } from './toolPolicy';

interface Verdict {
  tool: string | null;
  decision: string;
  reason: string;
}
interface ToolPolicyCheck {
  decide(message: unknown): Verdict | null;
  denialError(message: { id: unknown }, verdict: Verdict): unknown;
}
const { createToolPolicyCheck } = require(join(dirname(captureProxyScriptPath), 'toolPolicyCheck.js')) as {
  createToolPolicyCheck(policy: ProxyToolPolicy, server: string): ToolPolicyCheck;
};

const policies: ProxyToolPolicy[] = [
  { mode: 'allow_all' },
  { mode: 'allowlist', tools: [] },
  { mode: 'allowlist', tools: ['quote', 'track'] },
];
const messages: unknown[] = [
  { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'quote', arguments: {} } },
  { jsonrpc: '2.0', id: 'b', method: 'tools/call', params: { name: 'delete_everything' } },
  { jsonrpc: '2.0', id: 3, method: 'tools/call', params: {} },
  { jsonrpc: '2.0', id: 4, method: 'tools/call' },
  { jsonrpc: '2.0', method: 'tools/call', params: { name: 'track' } },
  { jsonrpc: '2.0', id: 5, method: 'tools/list' },
  { jsonrpc: '2.0', id: 6, result: {} },
  null,
  'tools/call',
];

describe('one tool policy at both proxies', () => {
  test.each(policies.map((policy) => [JSON.stringify(policy), policy] as const))(
    '%s: the same verdict and the same denial for every message',
    (_label, policy) => {
      const stdio = createToolPolicyCheck(policy, 'shipping');
      let denied = 0;
      for (const message of messages) {
        const fromScript = stdio.decide(message);
        const fromWire = judgeToolCall(policy, message);
        expect(fromScript ?? undefined).toEqual(fromWire);
        if (fromScript?.decision !== 'denied' || fromWire === undefined) continue;
        denied += 1;
        const id = (message as { id?: number | string }).id ?? null;
        expect(stdio.denialError({ id }, fromScript)).toEqual(denialResponse('shipping', id, fromWire));
      }
      expect(denied).toBe(policy.mode === 'allow_all' ? 0 : policy.tools.length === 0 ? 5 : 3);
    },
  );
});
