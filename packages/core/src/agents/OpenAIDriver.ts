import type OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { AgentMcpConnection } from './AgentMcpConnection';
import type { OpenAIEndpoint } from './agentOptions';
import type { HarnessContext, HarnessDriver, HarnessTurn, HarnessTurnEnd } from './HarnessDriver';
import { createOpenAIClient, runOpenAITurn } from './OpenAIHarness';
import { ToolCatalog } from './toolCatalog';

/**
 * The `openai` harness as a driver: the kit's own MCP connections (wire evidence directly), the
 * tool catalog offered as functions, and the Chat Completions conversation across turns.
 */
export class OpenAIDriver implements HarnessDriver {
  readonly runtime = 'openai' as const;
  private readonly catalog = new ToolCatalog();
  private readonly messages: ChatCompletionMessageParam[] = [];
  private connections: AgentMcpConnection[] = [];
  private client: OpenAI | undefined;

  constructor(
    private readonly endpoint: OpenAIEndpoint,
    private readonly model: string,
  ) {}

  async open(ctx: HarnessContext): Promise<void> {
    this.connections = ctx.options.servers.map(
      (s) => new AgentMcpConnection(s, ctx.recorder, ctx.redactor, ctx.logger, ctx.scope),
    );
    const cassette = ctx.cassette;
    // With cassettes (contract §24) the model calls go through the execution's channel.
    const channel = cassette !== null ? await cassette.open() : undefined;
    this.client = createOpenAIClient(
      this.endpoint,
      ctx.redactor,
      channel && cassette ? { fetch: channel.fetch, fallbackKey: cassette.apiKey(undefined) } : undefined,
    );
    ctx.recorder.record('session.created', {
      sessionId: ctx.sessionId,
      phase: 'startup',
      origin: 'normalized',
      payload: { sessionId: ctx.sessionId, agent: { name: 'sf-m3-openai-harness' }, model: this.model },
    });
    for (const connection of this.connections) {
      ctx.setStage({ stage: 'startup', operation: `connect ${connection.server.name}` });
      await connection.connect(ctx.signal);
      ctx.setStage({ stage: 'startup', operation: `tools/list ${connection.server.name}` });
      const tools = await connection.listTools(ctx.signal);
      this.catalog.add(connection, tools, ctx.options.policies.get(connection.server.name) ?? { mode: 'allow_all' });
    }
  }

  async runTurn(ctx: HarnessContext, turn: HarnessTurn): Promise<HarnessTurnEnd> {
    this.messages.push({ role: 'user', content: turn.prompt });
    const end = await runOpenAITurn({
      client: this.client as OpenAI,
      model: this.model,
      maxRounds: this.endpoint.maxRounds,
      recorder: ctx.recorder,
      catalog: this.catalog,
      messages: this.messages,
      sessionId: ctx.sessionId,
      turnId: turn.turnId,
      signal: ctx.signal,
      remainingMs: ctx.remainingMs,
      setStage: ctx.setStage,
    });
    // A turn that broke off (partial text) ends the execution: nothing more to converse about.
    if (end.error === undefined && end.text !== null && !ctx.signal.aborted) {
      this.messages.push({ role: 'assistant', content: end.text });
    }
    return end;
  }

  async close(): Promise<void> {
    await Promise.all(this.connections.map((c) => c.close()));
  }
}
