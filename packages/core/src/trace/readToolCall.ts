import type { JsonValue } from '../json';
import { textOfBlocks, type ContentBlock } from './ContentBlock';
import type { Observation } from './Observation';
import { reportedResultAsTool } from './projection/projectToolCalls';
import type { ProtocolErrorValue, ToolCallEntry, ToolResultValue } from './TraceEntry';

/** Which evidence of a tool call to read: the MCP messages (`wire`) or the agent's own account (`reported`). */
export type ToolCallSide = 'wire' | 'reported';

/**
 * A tool call's fields as plain values. Each is the value the trace kept, or `undefined` when it
 * kept none (not emitted, unsupported, unavailable…); the entry's Observations say why. Never throws.
 */
export interface ToolCallReading {
  /** The evidence the values come from; null when the call has neither (nothing to read). */
  readonly side: ToolCallSide | null;
  /** The tool's name. */
  readonly tool: string | undefined;
  /** The arguments the tool was called with. */
  readonly arguments: JsonValue | undefined;
  /** The result's content blocks (narrow on `type`: `block.type === 'text'` gives `block.text: string`). */
  readonly content: ContentBlock[] | undefined;
  /** The result's `structuredContent`. */
  readonly structuredContent: JsonValue | undefined;
  /** The text of the result's `text` blocks, joined as `toHaveText` joins it; `''` when there are none. */
  readonly text: string | undefined;
  /** Whether the result was a tool error (`isError: true`). */
  readonly isError: boolean | undefined;
  /** The JSON-RPC error that answered the call instead of a result (wire evidence only). */
  readonly error: ProtocolErrorValue | undefined;
}

const valueOf = <T>(o: Observation<T>): T | undefined => o.value ?? undefined;

function reading(
  side: ToolCallSide | null,
  tool: string | undefined,
  args: JsonValue | undefined,
  result: Observation<ToolResultValue>,
  error: ProtocolErrorValue | undefined,
): ToolCallReading {
  const value = valueOf(result);
  return {
    side,
    tool,
    arguments: args,
    content: value?.content,
    structuredContent: value === undefined ? undefined : valueOf(value.structuredContent),
    text: value === undefined ? undefined : textOfBlocks(value.content),
    isError: value?.isError,
    error,
  };
}

const NOTHING: ToolCallReading = Object.freeze({
  side: null,
  tool: undefined,
  arguments: undefined,
  content: undefined,
  structuredContent: undefined,
  text: undefined,
  isError: undefined,
  error: undefined,
});

/**
 * Reads a tool-call entry (`view.toolCalls[i]`, or one a matcher or evaluator got) as plain values.
 * Without `side`, reads the entry's own fields: the wire evidence when the call was seen on the wire
 * (every direct call; an agent's call through the capture proxy), else what the agent reported.
 * `side: 'wire'` or `'reported'` reads only that evidence, all `undefined` when the trace has none.
 */
export function readToolCall(call: ToolCallEntry, side?: ToolCallSide): ToolCallReading {
  const wire = call.wire.value ?? undefined;
  const reported = call.reported.value ?? undefined;
  if (side === undefined) {
    const source: ToolCallSide | null = wire !== undefined ? 'wire' : reported !== undefined ? 'reported' : null;
    return reading(source, valueOf(call.tool), valueOf(call.arguments), call.result, valueOf(call.error));
  }
  if (side === 'wire') {
    if (wire === undefined) return NOTHING;
    return reading('wire', wire.tool, wire.arguments ?? undefined, wire.result, valueOf(call.error));
  }
  if (reported === undefined) return NOTHING;
  return reading(
    'reported',
    reported.tool === '' ? undefined : reported.tool,
    valueOf(reported.arguments),
    reportedResultAsTool(reported, call.toolStatus),
    undefined,
  );
}
