import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { exampleServerBin } from '@sf-m3/example-servers';
import { agentManifests } from '../../../../../examples/fixtures/acp/agents';
import { MCPTestKit } from '../../kit/MCPTestKit';
import { StdioServer } from '../../servers/StdioServer';
import { ACP_SDK_BUNDLE } from './acpSdk';

const root = join(__dirname, '..', '..', '..', '..', '..');
const example = new StdioServer({ name: 'example', command: process.execPath, args: [exampleServerBin] });

beforeAll(() => {
  if (!existsSync(exampleServerBin)) execFileSync('npx', ['tsc', '-b', 'examples/servers'], { cwd: root });
  if (!existsSync(ACP_SDK_BUNDLE))
    execFileSync(process.execPath, ['packages/core/scripts/bundle-acp-sdk.js'], { cwd: root });
}, 120_000);

describe('the acp harness', () => {
  let kit: MCPTestKit;
  beforeEach(() => {
    kit = new MCPTestKit();
  });
  afterEach(async () => {
    await kit.close();
  });

  it('runs a two-turn session', async () => {
    const [agent] = kit.agents([{ harness: 'acp', manifest: agentManifests.shipping, models: ['fixture'] }]);
    const session = await agent!.session({ servers: [example], timeoutMs: 20_000 });
    const first = await session.send('Quote 2 kg local');
    const second = await session.send('Quote 3 kg regional');
    const result = await session.close();
    console.log(JSON.stringify({ first, second, error: result.error, outcome: result.snapshot.outcome }, null, 1));
    const view = result.traceView;
    console.log(JSON.stringify(view.toolCalls, null, 1).slice(0, 4000));
    console.log(view.timeline.map((e) => e.kind).join(','));
  });
});
