import OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { chatEndpointFetch } from '../endpoint/chatEndpoint';
import { M3Error } from '../errors';
import type { JsonObject } from '../json';
import type { Redactor } from '../redaction/Redactor';
import type { TraceRecorder } from '../trace/TraceRecorder';
import type { OpenAIEndpoint } from './agentOptions';
import type { McpToolOutcome } from './AgentMcpConnection';
import { providerError } from './agentErrors';
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
  /** What is left of the deadline (request timeouts derive from it). */
  readonly remainingMs: () => number;
  readonly setStage: (stage: TurnStage) => void;
}

/**
 * How a turn ended. A turn that broke off (deadline, cancel) or failed keeps the assistant text of
 * the rounds it got as `text` (partial); an abort with no text yet is thrown instead.
 */
export interface OpenAITurnEnd {
  readonly text: string | null;
  readonly stopReason: string | null;
  readonly error?: M3Error;
}

/** Between the texts of a turn's rounds when a turn that did not finish keeps them (partial). */
const ROUND_TEXT_SEPARATOR = '\n\n';

/**
 * Added to what is left of the deadline for a request's own timeout. The session's deadline aborts
 * `signal` and so decides the outcome (`timed_out`); a request timeout firing at the same moment
 * would race it and fail the turn instead, so it is only a backstop a little later.
 */
const REQUEST_TIMEOUT_GRACE_MS = 1_000;

/** Summed token counts of the turn's model calls. */
interface TurnUsage {
  input: number;
  output: number;
  total: number;
  seen: boolean;
}

/** Where the `openai` client's requests go when the execution has a cassette (contract §24). */
export interface OpenAIClientRoute {
  /** The cassette channel's `fetch`: answers as the recording proxy would. */
  readonly fetch: typeof fetch;
  /** The key to use when the key variable is unset (the replay placeholder), or undefined. */
  readonly fallbackKey: string | undefined;
}

/**
 * The `openai` client of an endpoint; the key is read now and added to the redactor's canaries.
 * With a cassette `route`, requests go through the channel's `fetch`, and in mode `replay` an unset
 * key is the placeholder (the channel never forwards it).
 */
export function createOpenAIClient(endpoint: OpenAIEndpoint, redactor: Redactor, route?: OpenAIClientRoute): OpenAI {
  let apiKey: string | null = null;
  if (endpoint.apiKeyEnv !== null) {
    const own = process.env[endpoint.apiKeyEnv];
    const placeholder = own === undefined || own.trim() === '' ? route?.fallbackKey : undefined;
    apiKey = placeholder ?? own ?? null;
    if (apiKey === null || apiKey.trim() === '') {
      throw new M3Error(
        'credential_missing',
        `the openai harness needs a key: export ${endpoint.apiKeyEnv}, or use auth: 'none' for a loopback endpoint`,
        { env: endpoint.apiKeyEnv },
      );
    }
    if (placeholder === undefined) redactor.addCanary(apiKey);
  }
  return new OpenAI({
    apiKey: apiKey ?? 'anonymous-loopback',
    baseURL: endpoint.baseUrl,
    organization: null,
    project: null,
    maxRetries: 0,
    // Never follows redirects (a key must not travel to another host); auth 'none' sends no header.
    fetch: chatEndpointFetch(endpoint.auth === 'none', route?.fetch),
  });
}

/**
 * One turn of the kit's own tool-calling loop: call the model with the offered tools, execute each
 * tool call through MCP (wire evidence), report it (`harness_reported` evidence), feed the results
 * back, until the model answers without tool calls or `maxRounds` model calls were made. A turn
 * that completes answers with its last round's text; one that breaks off or fails keeps the text
 * of every round so far, joined (as the `acp` harness keeps what the agent streamed).
 */
export async function runOpenAITurn(ctx: OpenAITurnContext): Promise<OpenAITurnEnd> {
  const tools = ctx.catalog.offered();
  const usage: TurnUsage = { input: 0, output: 0, total: 0, seen: false };
  const scope = { sessionId: ctx.sessionId, turnId: ctx.turnId, phase: 'turn' as const };
  const roundTexts: string[] = [];
  const partialText = (): string | null => (roundTexts.length > 0 ? roundTexts.join(ROUND_TEXT_SEPARATOR) : null);
  try {
    for (let round = 1; round <= ctx.maxRounds; round++) {
      ctx.setStage({ stage: 'model_call', operation: `chat.completions.create (round ${round})` });
      const completion = await ctx.client.chat.completions.create(
        { model: ctx.model, messages: ctx.messages, ...(tools.length > 0 && { tools }) },
        { signal: ctx.signal, timeout: requestTimeoutMs(ctx) },
      );
      if (completion.usage) {
        usage.seen = true;
        usage.input += completion.usage.prompt_tokens;
        usage.output += completion.usage.completion_tokens;
        usage.total += completion.usage.total_tokens;
      }
      const choice = completion.choices[0];
      if (choice === undefined) {
        return {
          text: partialText(),
          stopReason: null,
          error: new M3Error('provider_error', 'the model returned no choices'),
        };
      }
      const message = choice.message;
      const calls = (message.tool_calls ?? []).filter((c) => c.type === 'function');
      const text = message.content ?? null;
      if (text !== null && text !== '') {
        roundTexts.push(text);
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
          return {
            text: partialText(),
            stopReason: 'refusal',
            error: new M3Error('model_refused', 'the model refused to answer'),
          };
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
      text: partialText(),
      stopReason: 'max_rounds',
      error: new M3Error('max_rounds_exceeded', `the turn did not finish within maxRounds (${ctx.maxRounds})`, {
        maxRounds: ctx.maxRounds,
      }),
    };
  } catch (error) {
    const text = partialText();
    if (text === null) throw error;
    // Broken off by the deadline or a cancel: the session gives the turn its outcome.
    if (ctx.signal.aborted) return { text, stopReason: null };
    return { text, stopReason: null, error: providerError(error) };
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
      outcome = await entry.connection.callTool(entry.tool, args, ctx.signal, requestTimeoutMs(ctx));
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

/** A model or tool request's timeout: what is left of the deadline, plus the grace. */
function requestTimeoutMs(ctx: OpenAITurnContext): number {
  return Math.max(1, ctx.remainingMs()) + REQUEST_TIMEOUT_GRACE_MS;
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
