import { exampleServerBin } from '@sf-m3/example-servers';
import { ModelValidationError } from '../errors';
import { MCPTestKit } from '../kit/MCPTestKit';
import { StdioServer } from '../servers/StdioServer';
import type { TraceEvent } from '../trace/Event';
import { agentManifests, alive, ensureBuilt, tracedPids } from '@sf-m3/test-utils/agents';
import { AgentSpec } from './AgentSpec';

const example = new StdioServer({ name: 'example', command: process.execPath, args: [exampleServerBin] });
const shippingEntry = { harness: 'acp', manifest: agentManifests.shipping, models: ['fixture'] } as const;

beforeAll(ensureBuilt, 120_000);

describe('kit.run / kit.submit with an AgentSpec (contract §3)', () => {
  let kit: MCPTestKit;
  beforeEach(() => {
    kit = new MCPTestKit({ caseId: 'agent-spec' });
  });
  afterEach(() => kit.close());

  it('runs the agent once from a selection entry, with its policy and required evaluations recorded', async () => {
    const spec = new AgentSpec({
      agent: shippingEntry,
      prompt: 'Quote 2 kg local',
      servers: [example],
      tools: ['example:shipping_quote'],
      timeoutMs: 30_000,
      evaluations: [{ name: 'quote.correct.v1', required: true }, { name: 'advisory.v1' }],
    });
    const result = await kit.run(spec);

    expect(result.snapshot.outcome).toBe('completed');
    expect(result.turns.map((t) => t.response?.text)).toEqual(['quoted local']);
    const [call] = result.traceView.toolCalls;
    expect(call).toMatchObject({ server: 'example', correlation: 'correlated', status: 'success' });
    expect(call!.arguments.value).toEqual({ weight_kg: 2, zone: 'local' });
    const record = await kit.store.getExecution(result.executionId);
    expect(record.kind).toBe('agent');
    expect(record.requiredEvaluators).toEqual(['quote.correct.v1']);
    expect(record.labels).toMatchObject({ harness: 'acp', model: 'fixture', caseId: 'agent-spec' });
    expect(alive(tracedPids(result.trace.events))).toEqual([]);
  });

  it('submits in the background: the handle streams the trace to execution.finished', async () => {
    const [agent] = kit.agents([shippingEntry]);
    const handle = kit.submit(new AgentSpec({ agent: agent!, prompt: 'Quote 2 kg local', servers: [example] }));
    const kinds: string[] = [];
    for await (const event of handle.events() as AsyncIterable<TraceEvent>) kinds.push(event.kind);
    const result = await handle.result({ timeoutMs: 30_000 });

    expect(result.executionId).toBe(handle.executionId);
    expect(kinds[0]).toBe('execution.created');
    expect(kinds.at(-1)).toBe('execution.finished');
    expect(kinds).toContain('tool.call_requested');
    expect(result.turns[0]!.response?.text).toBe('quoted local');
  });

  it('refuses an entry naming several models, and a selection of another kit, before starting anything', async () => {
    const twoModels = new AgentSpec({
      agent: { ...shippingEntry, models: ['a', 'b'] },
      prompt: 'p',
      servers: [example],
    });
    expect(() => kit.submit(twoModels)).toThrow(/runs one agent, but its entry names 2 models/);

    const other = new MCPTestKit();
    try {
      const [foreign] = other.agents([shippingEntry]);
      const spec = new AgentSpec({ agent: foreign!, prompt: 'p', servers: [example] });
      expect(() => kit.submit(spec)).toThrow(/made by another kit/);
    } finally {
      await other.close();
    }
    expect(kit.executionIds()).toEqual([]);
  });

  it('validates its own shape at construction', () => {
    const make = (options: unknown) => () => new AgentSpec(options as ConstructorParameters<typeof AgentSpec>[0]);
    expect(make(null)).toThrow(ModelValidationError);
    expect(make({ agent: shippingEntry, prompt: '  ', servers: [example] })).toThrow(/non-empty prompt/);
    expect(make({ agent: 'acp', prompt: 'p', servers: [example] })).toThrow(/needs an agent/);
    const bad = new AgentSpec({
      agent: shippingEntry,
      prompt: 'p',
      servers: [example],
      evaluations: [{ name: '' }],
    });
    expect(() => kit.submit(bad)).toThrow(/evaluations must be a list/);
  });
});
