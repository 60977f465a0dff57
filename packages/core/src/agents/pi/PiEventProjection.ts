import type { JsonObject, JsonValue } from '../../json';
import type { NativeEventRecorder, NativeReportedCall } from '../native/NativeEventRecorder';
import { splitPrefixedToolName } from '../native/nativeToolSelection';
import { PI_BRIDGE_STATUS_KEY, parsePiBridgeStatus, type PiBridgeStatus } from './extension/piBridgeConfig';
import type { PiFrame } from './piRpc';
import { PiUsage } from './piUsage';
import { isObject } from '../../json';

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** The end of the assistant's last message in a turn. */
export interface PiMessageEnd {
  readonly text: string;
  readonly stopReason: string | null;
  readonly errorMessage: string | null;
}

/** Frames kept as `provider.event` (by their type): retries, compaction, extension errors, queue changes. */
const PROVIDER_EVENTS = new Set([
  'auto_retry_start',
  'auto_retry_end',
  'compaction_start',
  'compaction_end',
  'extension_error',
  'queue_update',
]);

/**
 * Pi's RPC events as the trace records them: whole assistant messages and their thinking at
 * `message_end`, `tool_execution_start`/`_end` as reported calls and results (providerCallId =
 * Pi's toolCallId, the id the extension also sends in `tools/call` `_meta`), cumulative usage, the
 * extension's status (tool name map, Pi's version). Keeps what a turn needs: streamed text so far,
 * the last message's end, whether `agent_end` came.
 */
export class PiEventProjection {
  status: PiBridgeStatus | undefined;
  /** The last assistant message of the current turn, once it ended. */
  lastMessage: PiMessageEnd | undefined;
  /** Text of the assistant message streaming now (for a turn that breaks off). */
  private streaming = '';
  private readonly usage = new PiUsage();
  private readonly calls = new Map<string, NativeReportedCall>();
  private readonly names = new Map<string, { server: string; tool: string }>();

  constructor(
    private readonly events: NativeEventRecorder,
    private readonly servers: readonly string[],
  ) {}

  /** A new prompt: forget the last turn's message. */
  beginTurn(): void {
    this.lastMessage = undefined;
    this.streaming = '';
  }

  /** The turn's answer so far: the message streaming now, else the last one that ended. */
  get partialText(): string | null {
    const text = this.streaming !== '' ? this.streaming : (this.lastMessage?.text ?? '');
    return text === '' ? null : text;
  }

  /** Records one event frame. */
  handle(frame: PiFrame): void {
    switch (frame.type) {
      case 'message_update':
        return this.delta(frame.assistantMessageEvent);
      case 'message_end':
        return this.messageEnd(frame.message);
      case 'tool_execution_start':
        return this.toolStart(frame);
      case 'tool_execution_end':
        return this.toolEnd(frame);
      case 'extension_ui_request':
        return this.uiRequest(frame);
      default:
        if (typeof frame.type === 'string' && PROVIDER_EVENTS.has(frame.type)) {
          const { type, ...rest } = frame;
          this.events.providerEvent(type as string, rest as JsonObject);
        }
    }
  }

  private delta(event: unknown): void {
    if (!isObject(event)) return;
    if (event.type === 'start') this.streaming = '';
    if (event.type === 'text_delta' && typeof event.delta === 'string') this.streaming += event.delta;
  }

  private messageEnd(message: unknown): void {
    if (!isObject(message) || message.role !== 'assistant') return;
    const texts: string[] = [];
    for (const block of Array.isArray(message.content) ? message.content : []) {
      if (!isObject(block)) continue;
      if (block.type === 'text' && typeof block.text === 'string') texts.push(block.text);
      if (block.type === 'thinking') {
        if (typeof block.thinking === 'string' && block.thinking !== '' && block.redacted !== true) {
          this.events.reasoning({ text: block.thinking });
        } else this.events.reasoning({ visibility: 'encrypted' });
      }
    }
    const text = texts.join('');
    const stopReason = str(message.stopReason);
    this.events.assistantMessage(text, str(message.responseId), stopReason);
    this.lastMessage = { text, stopReason, errorMessage: str(message.errorMessage) };
    this.streaming = '';
    if (this.usage.add(message.usage)) this.events.usage(this.usage.value ?? {});
  }

  /** server and tool of a Pi tool name: the extension's map, else `mcp_<server>_<tool>`, else a built-in tool. */
  private identify(name: string): { server: string | null; tool: string } {
    return (
      this.names.get(name) ?? splitPrefixedToolName(name, this.servers, 'mcp_', '_') ?? { server: null, tool: name }
    );
  }

  private toolStart(frame: PiFrame): void {
    const id = str(frame.toolCallId);
    const name = str(frame.toolName);
    if (id === null || name === null) return;
    const call: NativeReportedCall = {
      providerCallId: id,
      ...this.identify(name),
      ...(frame.args !== undefined && { arguments: frame.args as JsonValue }),
    };
    this.calls.set(id, call);
    this.events.toolRequested(call);
  }

  private toolEnd(frame: PiFrame): void {
    const id = str(frame.toolCallId);
    if (id === null) return;
    const call = this.calls.get(id) ?? { providerCallId: id, ...this.identify(str(frame.toolName) ?? '') };
    this.calls.delete(id);
    const result = isObject(frame.result) ? frame.result : {};
    const details = isObject(result.details) ? result.details : {};
    const isError = frame.isError === true;
    const value: JsonObject = {
      content: (Array.isArray(result.content) ? result.content : []) as JsonValue[],
      ...(details.structuredContent !== undefined && { structuredContent: details.structuredContent as JsonValue }),
      isError,
    };
    this.events.toolResult(call, value, isError ? 'failed' : 'completed');
  }

  private uiRequest(frame: PiFrame): void {
    if (frame.method !== 'setStatus' || frame.statusKey !== PI_BRIDGE_STATUS_KEY) return;
    const status = parsePiBridgeStatus(frame.statusText);
    if (status === undefined) {
      this.events.malformed('pi_malformed_frame', 'the sf-m3 pi extension reported a status that is not one');
      return;
    }
    this.status = status;
    for (const t of status.tools) this.names.set(t.name, { server: t.server, tool: t.tool });
    for (const e of status.errors) {
      this.events.providerEvent('mcp_server_unavailable', { server: e.server, message: e.message });
    }
  }
}
