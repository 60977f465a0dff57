import { Redactor } from '../redaction/Redactor';
import { MCPTestKit } from '../kit/MCPTestKit';
import { InProcessServer } from '../servers/InProcessServer';
import { createExampleServer } from '@sf-m3/example-servers';
import { FakeChatCompletionsServer } from '../testing/FakeChatCompletionsServer';
import type { AgentHost } from './AgentHost';
import { agentExecutionRecord, harnessConfigLabel } from './agentExecutionRecord';

function host(labels: AgentHost['labels']): AgentHost {
  return { redactor: new Redactor(), runId: 'run-1', suiteName: 's', attemptId: null, labels } as unknown as AgentHost;
}

const record = (labels: AgentHost['labels'], identity: { name?: string; trial?: number } = {}) =>
  agentExecutionRecord({
    host: host(labels),
    identity: { harness: 'acp', model: 'fixture', trial: identity.trial ?? 2, endpointHost: null, ...identity },
    executionId: 'exec-1',
    caseId: 'case-1',
    timeoutMs: 1000,
    createdAt: new Date(0).toISOString(),
    servers: [{ name: 'example', transport: 'stdio' }],
  });

describe('agentExecutionRecord labels', () => {
  it('adds metadata.harness_config and metadata.trial, keeping the kit metadata', () => {
    const r = record({ metadata: { team: 'x' } });
    expect(r.labels).toMatchObject({ harness: 'acp', model: 'fixture', trial: '2', server: 'example' });
    expect(r.labels.metadata).toEqual({ team: 'x', harness_config: 'acp:fixture', trial: '2' });
    expect(r.spec).toMatchObject({ trial: 2 });
  });

  it('appends the selection name when it differs from the harness kind', () => {
    expect(harnessConfigLabel({ harness: 'acp', model: 'm' })).toBe('acp:m');
    expect(harnessConfigLabel({ harness: 'acp', model: 'm', name: 'acp' })).toBe('acp:m');
    expect(harnessConfigLabel({ harness: 'acp', model: 'm', name: 'fixture-b' })).toBe('acp:m:fixture-b');
    expect(record({}, { name: 'fixture-b' }).labels.metadata.harness_config).toBe('acp:fixture:fixture-b');
  });

  it("a kit's trial label (a test.m3 expansion) wins over the selection's own trial number", () => {
    const r = record({ server: 'example', harness: 'acp', model: 'fixture', trial: '3' }, { trial: 1 });
    expect(r.labels.trial).toBe('3');
    expect(r.labels.metadata.trial).toBe('3');
    expect(r.spec).toMatchObject({ trial: 3 });
  });
});

describe('agent execution labels through the kit', () => {
  const example = new InProcessServer({ name: 'example', factory: createExampleServer });
  let fake: FakeChatCompletionsServer;
  let baseUrl: string;

  beforeEach(async () => {
    fake = new FakeChatCompletionsServer();
    ({ baseUrl } = await fake.start());
  });
  afterEach(() => fake.close());

  it('saves harness_config and the kit trial on the stored record', async () => {
    const kit = new MCPTestKit({ labels: { harness: 'openai', model: 'fake-model', trial: '2' } });
    try {
      fake.enqueue({ content: 'hello' });
      const [agent] = kit.agents([{ harness: 'openai', model: 'fake-model', baseUrl, auth: 'none' }]);
      const result = await agent!.run('hi', { servers: [example] });
      const saved = await kit.store.getExecution(result.executionId);
      expect(saved.labels).toMatchObject({ harness: 'openai', model: 'fake-model', trial: '2' });
      expect(saved.labels.metadata).toEqual({ harness_config: 'openai:fake-model', trial: '2' });
    } finally {
      await kit.close();
    }
  });
});
