import type { JsonObject, JsonValue } from '../../json';
import type { UsageValue } from '../../trace/TraceEntry';
import type { TraceRecorder } from '../../trace/TraceRecorder';

type Scope = () => { sessionId: string; turnId?: string };

/** What `sessionCreated` records about the CLI's session (`runtime` of the trace view). */
export interface NativeSessionFacts {
  /** The CLI's own session or thread id (`runtime.sessionId`). */
  readonly agentSessionId: string | null;
  /** The model as the CLI reports it (else as selected). */
  readonly model: string;
  /** The CLI: `{ name, version }` and whatever else it reports about itself. */
  readonly agent: JsonObject;
  /** The CLI's protocol version, when its protocol has one. */
  readonly protocolVersion?: string;
}

/** One tool call as the CLI reported it. */
export interface NativeReportedCall {
  /** The CLI's id for the call (Claude `tool_use` id, Codex item id / call id...). */
  readonly providerCallId: string;
  /** The MCP server, when the CLI's tool name says which (else a built-in tool). */
  readonly server: string | null;
  readonly tool: string;
  /** Undefined when the CLI did not report arguments. */
  readonly arguments?: JsonValue;
}

/**
 * The events every native harness records, in one shape, so the trace projection treats the four
 * CLIs alike: the session, whole assistant messages, reasoning (visible or as its hidden state),
 * reported tool calls and results (origin `harness_reported`; the wire evidence comes from the
 * capture proxies), cumulative usage, other provider events, and raw protocol frames.
 */
export class NativeEventRecorder {
  constructor(
    private readonly recorder: TraceRecorder,
    private readonly scope: Scope,
    private readonly connectionId: string,
  ) {}

  private base(phase: 'startup' | 'turn' = 'turn') {
    return { ...this.scope(), phase, origin: 'harness_reported' as const };
  }

  /** `session.created` with the CLI's session id, model and version. */
  sessionCreated(facts: NativeSessionFacts): void {
    if (this.recorder.finished) return;
    const { sessionId } = this.scope();
    this.recorder.record('session.created', {
      ...this.base('startup'),
      payload: {
        sessionId,
        agentSessionId: facts.agentSessionId,
        model: facts.model,
        agent: facts.agent,
        ...(facts.protocolVersion !== undefined && { protocolVersion: facts.protocolVersion }),
      },
    });
  }

  /** One whole assistant message (record it when complete, not per delta). */
  assistantMessage(text: string, messageId: string | null = null, stopReason?: string | null): void {
    if (this.recorder.finished || text === '') return;
    this.recorder.record('assistant.content', {
      ...this.base(),
      payload: {
        role: 'assistant',
        content: [{ type: 'text', text }],
        messageId,
        ...(stopReason !== undefined && { stopReason }),
      },
    });
  }

  /** Visible reasoning text, or reasoning the CLI reports only as hidden or encrypted (no text kept). */
  reasoning(reasoning: { text: string } | { visibility: 'encrypted' | 'provider_hidden' | 'unavailable' }): void {
    if (this.recorder.finished) return;
    const payload =
      'text' in reasoning
        ? { visibility: 'visible', content: [{ type: 'text', text: reasoning.text }] }
        : { visibility: reasoning.visibility };
    this.recorder.record('reasoning', { ...this.base(), payload });
  }

  /** A tool call the CLI reported (`tool.call_requested`). */
  toolRequested(call: NativeReportedCall): void {
    if (this.recorder.finished) return;
    this.recorder.record('tool.call_requested', {
      ...this.base(),
      ...(call.server !== null && { server: call.server }),
      payload: {
        method: 'tools/call',
        params: { name: call.tool, ...(call.arguments !== undefined && { arguments: call.arguments }) },
        providerCallId: call.providerCallId,
      },
    });
  }

  /**
   * The result the CLI reported for a call (`tool.result_received`): an MCP `CallToolResult`, or
   * plain text; `status` as the CLI words it (`completed`, `failed`, `error`, `cancelled`...).
   */
  toolResult(call: NativeReportedCall, result: JsonValue, status: string): void {
    if (this.recorder.finished) return;
    this.recorder.record('tool.result_received', {
      ...this.base(),
      ...(call.server !== null && { server: call.server }),
      payload: { method: 'tools/call', result, providerCallId: call.providerCallId, status },
    });
  }

  /**
   * Usage as the CLI reports it, cumulative for the session (the trace summary takes the latest):
   * a field the CLI does not report stays null.
   */
  usage(usage: Partial<UsageValue>): void {
    if (this.recorder.finished) return;
    const value: UsageValue = {
      inputTokens: usage.inputTokens ?? null,
      outputTokens: usage.outputTokens ?? null,
      totalTokens: usage.totalTokens ?? null,
      reasoningTokens: usage.reasoningTokens ?? null,
      cost: usage.cost ?? null,
      currency: usage.currency ?? null,
    };
    this.recorder.record('usage', { ...this.base(), payload: value });
  }

  /** Anything else the CLI said that the trace keeps (`provider.event`, category = the kind). */
  providerEvent(category: string, payload: JsonObject): void {
    if (this.recorder.finished) return;
    this.recorder.record('provider.event', { ...this.base(), payload: { category, ...payload } });
  }

  /** One raw protocol frame, both ways (`raw.frame`, source `harness`, redacted and bounded by the recorder). */
  frame(direction: 'sdk_to_harness' | 'harness_to_sdk', raw: Buffer | string): void {
    if (this.recorder.finished) return;
    const current = this.scope();
    this.recorder.record('raw.frame', {
      ...current,
      phase: current.turnId !== undefined ? 'turn' : 'startup',
      origin: 'wire_observed',
      direction,
      connectionId: this.connectionId,
      payload: {},
      raw,
      rawSource: 'harness',
    });
  }

  /** A line or body the CLI sent that could not be read (`diagnostic`, code `<kind>_malformed_frame`). */
  malformed(code: string, message: string): void {
    if (this.recorder.finished) return;
    this.recorder.record('diagnostic', {
      ...this.scope(),
      origin: 'normalized',
      direction: 'internal',
      payload: { code, message },
    });
  }
}
