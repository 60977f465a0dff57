import OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { chatEndpointFetch } from '../endpoint/chatEndpoint';
import { M3Error } from '../errors';
import type { JsonObject } from '../json';
import type { Redactor } from '../redaction/Redactor';
import type { TraceRecorder } from '../trace/TraceRecorder';
import type { OpenAIEndpoint } from './agentOptions';
import type { McpToolOutcome } from './AgentMcpConnection';
import type { TurnStage } from './HarnessDriver';
import type { ToolCatalog } from './toolCatalog';

/** What one turn of the loop needs. */
export interface OpenAITurnContext {
  readonly client: OpenAI;
  readonly model: string;
  readonly maxRounds: number;
  readonly recorder: TraceRecorder;
  readonly catalog: ToolCatalog;
  /** The conversation so far; the turn appends its own messages. */
  readonly messages: ChatCompletionMessageParam[];
  readonly sessionId: string;
  readonly turnId: string;
  readonly signal: AbortSignal;
  /** Per tool call timeout (what is left of the deadline). */
  readonly remainingMs: () => number;
  readonly setStage: (stage: TurnStage) => void;
}

/** How a turn ended (an abort is thrown instead). */
export interface OpenAITurnEnd {
  readonly text: string | null;
  readonly stopReason: string | null;
  readonly error?: M3Error;
}

/** Summed token counts of the turn's model calls. */
interface TurnUsage {
  input: number;
  output: number;
  total: number;
  seen: boolean;
}

/** The `openai` client of an endpoint; the key is read now and added to the redactor's canaries. */
export function createOpenAIClient(endpoint: OpenAIEndpoint, redactor: Redactor): OpenAI {
  let apiKey: string | null = null;
  if (endpoint.apiKeyEnv !== null) {
    apiKey = process.env[endpoint.apiKeyEnv] ?? null;
    if (apiKey === null || apiKey.trim() === '') {
      throw new M3Error(
        'credential_missing',
        `the openai harness needs a key: export ${endpoint.apiKeyEnv}, or use auth: 'none' for a loopback endpoint`,
        { env: endpoint.apiKeyEnv },
      );
    }
    redactor.addCanary(apiKey);
  }
  return new OpenAI({
    apiKey: apiKey ?? 'anonymous-loopback',
    baseURL: endpoint.baseUrl,
    organization: null,
    project: null,
    maxRetries: 0,
    // Never follows redirects (a key must not travel to another host); auth 'none' sends no header.
    fetch: chatEndpointFetch(endpoint.auth === 'none'),
  });
}

/**
 * One turn of the kit's own tool-calling loop: call the model with the offered tools, execute each
 * tool call through MCP (wire evidence), report it (`harness_reported` evidence), feed the results
 * back, until the model answers without tool calls or `maxRounds` model calls were made.
 */
export async function runOpenAITurn(ctx: OpenAITurnContext): Promise<OpenAITurnEnd> {
  const tools = ctx.catalog.offered();
  const usage: TurnUsage = { input: 0, output: 0, total: 0, seen: false };
  const scope = { sessionId: ctx.sessionId, turnId: ctx.turnId, phase: 'turn' as const };
  try {
    for (let round = 1; round <= ctx.maxRounds; round++) {
      ctx.setStage({ stage: 'model_call', operation: `chat.completions.create (round ${round})` });
      const completion = await ctx.client.chat.completions.create(
        { model: ctx.model, messages: ctx.messages, ...(tools.length > 0 && { tools }) },
        { signal: ctx.signal, timeout: Math.max(1, ctx.remainingMs()) },
      );
      if (completion.usage) {
        usage.seen = true;
        usage.input += completion.usage.prompt_tokens;
        usage.output += completion.usage.completion_tokens;
        usage.total += completion.usage.total_tokens;
      }
      const choice = completion.choices[0];
      if (choice === undefined) {
        return { text: null, stopReason: null, error: new M3Error('provider_error', 'the model returned no choices') };
      }
      const message = choice.message;
      const calls = (message.tool_calls ?? []).filter((c) => c.type === 'function');
      const text = message.content ?? null;
      if (text !== null && text !== '') {
        ctx.recorder.record('assistant.content', {
          ...scope,
          origin: 'harness_reported',
          payload: {
            role: 'assistant',
            content: [{ type: 'text', text }],
            stopReason: calls.length > 0 ? 'tool_calls' : choice.finish_reason,
          },
        });
      }
      if (calls.length === 0) {
        if (message.refusal) {
          return { text, stopReason: 'refusal', error: new M3Error('model_refused', 'the model refused to answer') };
        }
        return { text: text ?? '', stopReason: choice.finish_reason };
      }
      ctx.messages.push({ role: 'assistant', content: text, tool_calls: calls });
      for (const call of calls) {
        const output = await executeToolCall(ctx, call.id, call.function.name, call.function.arguments);
        ctx.messages.push({ role: 'tool', tool_call_id: call.id, content: toolMessageText(output) });
      }
    }
    ctx.recorder.record('diagnostic', {
      ...scope,
      origin: 'normalized',
      direction: 'internal',
      payload: {
        code: 'max_rounds_exceeded',
        message: `the model still asked for tools after ${ctx.maxRounds} rounds: raise maxRounds or check the prompt`,
        stage: 'turn',
        operation: 'chat.completions.create',
      },
    });
    return {
      text: null,
      stopReason: 'max_rounds',
      error: new M3Error('max_rounds_exceeded', `the turn did not finish within maxRounds (${ctx.maxRounds})`, {
        maxRounds: ctx.maxRounds,
      }),
    };
  } finally {
    if (usage.seen && !ctx.recorder.finished) {
      ctx.recorder.record('usage', {
        ...scope,
        origin: 'harness_reported',
        payload: {
          inputTokens: usage.input,
          outputTokens: usage.output,
          totalTokens: usage.total,
          reasoningTokens: null,
          cost: null,
          currency: null,
        },
      });
    }
  }
}

/** Runs one requested call (or refuses it under the policy) and records the agent's report. */
async function executeToolCall(
  ctx: OpenAITurnContext,
  providerCallId: string,
  functionName: string,
  rawArguments: string,
): Promise<McpToolOutcome> {
  const entry = ctx.catalog.lookup(functionName);
  const args = parseArguments(rawArguments);
  const base = {
    sessionId: ctx.sessionId,
    turnId: ctx.turnId,
    phase: 'turn' as const,
    origin: 'harness_reported' as const,
    ...(entry !== undefined && { server: entry.server }),
  };
  const tool = entry?.tool ?? functionName;
  ctx.recorder.record('tool.call_requested', {
    ...base,
    payload: { method: 'tools/call', params: { name: tool, arguments: args ?? {} }, providerCallId },
  });
  let outcome: McpToolOutcome;
  let status: string;
  if (entry === undefined || !entry.allowed) {
    const why =
      entry === undefined
        ? `tool '${functionName}' does not exist`
        : `tool '${entry.server}:${entry.tool}' is not allowed by this test's tool policy`;
    outcome = { content: [{ type: 'text', text: why }], isError: true };
    status = 'denied';
  } else if (args === null) {
    outcome = { content: [{ type: 'text', text: 'the tool arguments were not a JSON object' }], isError: true };
    status = 'failed';
  } else {
    ctx.setStage({ stage: 'tool_call', operation: `tools/call ${entry.server}:${entry.tool}` });
    try {
      outcome = await entry.connection.callTool(entry.tool, args, ctx.signal, Math.max(1, ctx.remainingMs()));
      status = outcome.isError ? 'failed' : 'completed';
    } catch (error) {
      if (ctx.signal.aborted) throw error;
      const message = error instanceof Error ? error.message : String(error);
      outcome = { content: [{ type: 'text', text: `the tool call failed: ${message}` }], isError: true };
      status = 'failed';
    }
  }
  const result: JsonObject = {
    content: outcome.content,
    ...(outcome.structuredContent !== undefined && { structuredContent: outcome.structuredContent }),
    isError: outcome.isError,
  };
  ctx.recorder.record('tool.result_received', {
    ...base,
    payload: { method: 'tools/call', result, providerCallId, status },
  });
  return outcome;
}

function parseArguments(raw: string): JsonObject | null {
  if (raw.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonObject) : null;
  } catch {
    return null;
  }
}

/** The tool message the model reads: the text parts, else the structured or raw content as JSON. */
function toolMessageText(outcome: McpToolOutcome): string {
  const texts = outcome.content.filter((c) => c.type === 'text' && typeof c.text === 'string').map((c) => c.text);
  if (texts.length > 0) return texts.join('\n');
  return JSON.stringify(outcome.structuredContent ?? outcome.content);
}
