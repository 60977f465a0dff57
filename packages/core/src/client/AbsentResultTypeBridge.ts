import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';
import { PassThroughTransport } from '../transport/PassThroughTransport';

type MessageHandler = (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;

/**
 * Between a 2026-07-28 connection's observed transport and the SDK v2 client: a result that
 * arrives without `resultType` is handed to the client as `resultType: 'complete'`. The
 * 2026-07-28 specification says clients MUST treat an absent `resultType` as `complete`
 * (conformance check `sep-2322-default-result-type-complete`), while the SDK v2 client refuses
 * such a result on a 2026-07-28 connection (`INVALID_RESULT`, "missing required resultType").
 * The trace keeps what the server sent: the observed transport below has recorded the frame
 * before this bridge sees it.
 */
export class AbsentResultTypeBridge extends PassThroughTransport {
  override get onmessage(): MessageHandler | undefined {
    return super.onmessage;
  }
  override set onmessage(handler: MessageHandler | undefined) {
    super.onmessage =
      handler === undefined
        ? undefined
        : (message: JSONRPCMessage, extra?: MessageExtraInfo) => handler(withDefaultResultType(message), extra);
  }
}

/** The message with `resultType: 'complete'` added to a result object that has none. */
export function withDefaultResultType(message: JSONRPCMessage): JSONRPCMessage {
  if (!('result' in message)) return message;
  const result = message.result as Record<string, unknown> | null;
  if (typeof result !== 'object' || result === null || Array.isArray(result) || 'resultType' in result) return message;
  return { ...message, result: { ...result, resultType: 'complete' } } as JSONRPCMessage;
}
