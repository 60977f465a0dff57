import type { JsonValue } from '../json';
import { arrayOf, field, stringOf } from './fakeHttp';
import {
  parseArguments,
  resolveToolResultNames,
  textOf,
  type FakeConversationView,
  type FakeMessageView,
  type FakeToolCallView,
  type FakeToolResultView,
  type FakeToolView,
} from './fakeModelRequest';

/** Joins a namespace tool's name and one of its functions into the neutral tool name. */
export function namespacedName(namespace: string, name: string): string {
  return `${namespace}__${name}`;
}

/** Text of Responses content: a string, or parts (`input_text`, `output_text`, `text`, `refusal`) joined with newlines. */
function partsText(content: JsonValue | undefined): string {
  if (typeof content === 'string') return content;
  return arrayOf(content)
    .map((part) => stringOf(field(part, 'text')) ?? stringOf(field(part, 'refusal')) ?? '')
    .filter((text) => text.length > 0)
    .join('\n');
}

/** A `function_call_output` / `custom_tool_call_output` output: a string, parts, or the older `{ content, success }`. */
function outputResult(item: JsonValue): FakeToolResultView {
  const output = field(item, 'output');
  const object = typeof output === 'object' && output !== null && !Array.isArray(output);
  const text = Array.isArray(output) ? partsText(output) : object ? textOf(field(output, 'content')) : textOf(output);
  return {
    callId: stringOf(field(item, 'call_id')) ?? null,
    name: null,
    text,
    isError: object && field(output, 'success') === false,
  };
}

function toolCall(item: JsonValue, type: string): FakeToolCallView {
  const name = stringOf(field(item, 'name')) ?? '';
  const namespace = stringOf(field(item, 'namespace'));
  return {
    id: stringOf(field(item, 'call_id')) ?? null,
    name: namespace !== undefined && namespace.length > 0 ? namespacedName(namespace, name) : name,
    arguments:
      type === 'custom_tool_call' ? textOf(field(item, 'input')) : parseArguments(textOf(field(item, 'arguments'))),
  };
}

/**
 * Reads a Responses request: `instructions` and developer/system messages become the system text;
 * `input` (a string, or items) becomes messages. Consecutive assistant items (a `message` with
 * `output_text`, `function_call` / `custom_tool_call` items; `reasoning` items are skipped) are one
 * assistant message, as they are one model answer; consecutive call outputs are one `tool` message.
 */
export function readResponsesRequest(body: JsonValue | null): FakeConversationView {
  const system: string[] = [];
  const instructions = stringOf(field(body, 'instructions'));
  if (instructions !== undefined && instructions.length > 0) system.push(instructions);
  const messages: FakeMessageView[] = [];
  const append = (message: FakeMessageView): void => {
    const previous = messages.at(-1);
    const mergeable = message.role !== 'user' && previous?.role === message.role;
    if (!mergeable) {
      messages.push(message);
      return;
    }
    messages[messages.length - 1] = {
      role: previous.role,
      text: [previous.text, message.text].filter((t) => t.length > 0).join('\n'),
      toolCalls: [...previous.toolCalls, ...message.toolCalls],
      toolResults: [...previous.toolResults, ...message.toolResults],
    };
  };
  const input = field(body, 'input');
  const items = typeof input === 'string' ? [{ type: 'message', role: 'user', content: input }] : arrayOf(input);
  for (const item of items) {
    // An item without `type` is a message (the easy input form `{ role, content }`).
    const type = stringOf(field(item, 'type')) ?? 'message';
    if (type === 'message') {
      const role = stringOf(field(item, 'role'));
      const text = partsText(field(item, 'content'));
      if (role === 'developer' || role === 'system') {
        if (text.length > 0) system.push(text);
      } else {
        append({ role: role === 'assistant' ? 'assistant' : 'user', text, toolCalls: [], toolResults: [] });
      }
    } else if (type === 'function_call' || type === 'custom_tool_call') {
      append({ role: 'assistant', text: '', toolCalls: [toolCall(item, type)], toolResults: [] });
    } else if (type === 'function_call_output' || type === 'custom_tool_call_output') {
      append({ role: 'tool', text: '', toolCalls: [], toolResults: [outputResult(item)] });
    }
  }
  return {
    model: stringOf(field(body, 'model')) ?? null,
    stream: field(body, 'stream') === true,
    system: system.join('\n'),
    messages: resolveToolResultNames(messages),
    tools: readTools(field(body, 'tools')),
  };
}

/**
 * Tools the model can call: `function` and `custom` tools, and the functions of `namespace` tools
 * (named `<namespace>__<function>`). Hosted tools (`web_search`, `mcp`, `file_search`...) are not
 * called through function calls and are left out.
 */
function readTools(tools: JsonValue | undefined): FakeToolView[] {
  const views: FakeToolView[] = [];
  for (const tool of arrayOf(tools)) {
    const type = stringOf(field(tool, 'type'));
    const name = stringOf(field(tool, 'name')) ?? '';
    if (type === 'function' || type === 'custom') {
      views.push({
        name,
        description: stringOf(field(tool, 'description')) ?? '',
        parameters: type === 'function' ? (field(tool, 'parameters') ?? null) : null,
      });
    } else if (type === 'namespace') {
      for (const inner of arrayOf(field(tool, 'tools'))) {
        const innerType = stringOf(field(inner, 'type'));
        if (innerType !== 'function' && innerType !== 'custom') continue;
        views.push({
          name: namespacedName(name, stringOf(field(inner, 'name')) ?? ''),
          description: stringOf(field(inner, 'description')) ?? '',
          parameters: innerType === 'function' ? (field(inner, 'parameters') ?? null) : null,
          namespace: name,
        });
      }
    }
  }
  return views;
}
