import type { JsonValue } from '../json';
import { arrayOf, field, stringOf } from './fakeHttp';
import {
  declaredNestedTools,
  deferredNamespaces,
  EXEC_TOOL,
  execReport,
  execResult,
  listedNestedTools,
  offersExec,
  scriptedCall,
  TOOL_DISCOVERY_SCRIPT,
} from './responsesCodeMode';
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

/**
 * A `function_call_output` / `custom_tool_call_output` output: a string, parts, or the older `{ content, success }`;
 * a code-mode `exec` report (`Script completed ... Output:`) gives what the script printed (see `execResult`).
 */
function outputResult(item: JsonValue): FakeToolResultView {
  const output = field(item, 'output');
  const callId = stringOf(field(item, 'call_id')) ?? null;
  const report = execReport(output);
  if (report) return execResult(callId, report);
  const object = typeof output === 'object' && output !== null && !Array.isArray(output);
  const text = Array.isArray(output) ? partsText(output) : object ? textOf(field(output, 'content')) : textOf(output);
  return { callId, name: null, text, isError: object && field(output, 'success') === false };
}

/** A call item's view; a code-mode `exec` call in the shape the fake sends is the nested tool's call. */
function toolCall(item: JsonValue, type: string): FakeToolCallView {
  const name = stringOf(field(item, 'name')) ?? '';
  const namespace = stringOf(field(item, 'namespace'));
  const id = stringOf(field(item, 'call_id')) ?? null;
  if (type === 'custom_tool_call') {
    const input = textOf(field(item, 'input'));
    const nested = name === EXEC_TOOL ? scriptedCall(input) : null;
    return nested ? { id, ...nested } : { id, name, arguments: input };
  }
  return {
    id,
    name: namespace !== undefined && namespace.length > 0 ? namespacedName(namespace, name) : name,
    arguments: parseArguments(textOf(field(item, 'arguments'))),
  };
}

/**
 * Reads a Responses request: `instructions` and developer/system messages become the system text;
 * `input` (a string, or items) becomes messages. Consecutive assistant items (a `message` with
 * `output_text`, `function_call` / `custom_tool_call` items; `reasoning` items are skipped) are one
 * assistant message, as they are one model answer; consecutive call outputs are one `tool` message.
 * Code mode (an `additional_tools` item offering `exec`): see `responsesCodeMode.ts`; the fake's own tool
 * discovery exchange is left out of the messages and its listing becomes tools.
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
  let codeMode = false;
  const additional: FakeToolView[] = [];
  const discoveries = new Map<string, JsonValue>(); // discovery call_id -> its call item
  const listings: string[] = [];
  const input = field(body, 'input');
  const items = typeof input === 'string' ? [{ type: 'message', role: 'user', content: input }] : arrayOf(input);
  for (const item of items) {
    // An item without `type` is a message (the easy input form `{ role, content }`).
    const type = stringOf(field(item, 'type')) ?? 'message';
    const callId = stringOf(field(item, 'call_id')) ?? '';
    if (type === 'message') {
      const role = stringOf(field(item, 'role'));
      const text = partsText(field(item, 'content'));
      if (role === 'developer' || role === 'system') {
        if (text.length > 0) system.push(text);
      } else {
        append({ role: role === 'assistant' ? 'assistant' : 'user', text, toolCalls: [], toolResults: [] });
      }
    } else if (type === 'additional_tools') {
      codeMode ||= offersExec(item);
      additional.push(...readTools(field(item, 'tools')));
    } else if (type === 'custom_tool_call' && textOf(field(item, 'input')) === TOOL_DISCOVERY_SCRIPT) {
      discoveries.set(callId, item);
    } else if (type === 'function_call' || type === 'custom_tool_call') {
      append({ role: 'assistant', text: '', toolCalls: [toolCall(item, type)], toolResults: [] });
    } else if (type === 'function_call_output' || type === 'custom_tool_call_output') {
      const discovery = discoveries.get(callId);
      const report = discovery !== undefined ? execReport(field(item, 'output')) : null;
      const listed = report?.status === 'completed' ? listedNestedTools(report.printed, []) : null;
      if (listed) {
        listings.push(report!.printed);
        continue;
      }
      // A discovery that failed (or printed no listing) stays in the conversation, as a call of `exec`.
      if (discovery !== undefined)
        append({ role: 'assistant', text: '', toolCalls: [toolCall(discovery, 'custom_tool_call')], toolResults: [] });
      append({ role: 'tool', text: '', toolCalls: [], toolResults: [outputResult(item)] });
    }
  }
  const systemText = system.join('\n');
  const namespaces = deferredNamespaces(systemText);
  const tools = [...readTools(field(body, 'tools')), ...additional];
  for (const listing of listings) tools.push(...(listedNestedTools(listing, namespaces) ?? []));
  return {
    model: stringOf(field(body, 'model')) ?? null,
    stream: field(body, 'stream') === true,
    system: systemText,
    messages: resolveToolResultNames(messages),
    tools: distinctByName(tools),
    ...(codeMode ? { codeMode: true as const } : {}),
  };
}

/** Tools with each name kept once, first offered first (a listed nested tool `exec` already declared is dropped). */
function distinctByName(tools: readonly FakeToolView[]): FakeToolView[] {
  const seen = new Set<string>();
  return tools.filter((tool) => {
    if (seen.has(tool.name)) return false;
    seen.add(tool.name);
    return true;
  });
}

/**
 * Tools the model can call: `function` and `custom` tools, and the functions of `namespace` tools
 * (named `<namespace>__<function>`; namespace `functions`, code mode's own, keeps plain names, and its
 * `exec` tool's description declares nested tools). Hosted tools (`web_search`, `mcp`, `file_search`...)
 * are not called through function calls and are left out.
 */
function readTools(tools: JsonValue | undefined): FakeToolView[] {
  const views: FakeToolView[] = [];
  for (const tool of arrayOf(tools)) {
    const type = stringOf(field(tool, 'type'));
    const name = stringOf(field(tool, 'name')) ?? '';
    if (type === 'function' || type === 'custom') {
      views.push(toolView(tool, type, name));
    } else if (type === 'namespace') {
      for (const inner of arrayOf(field(tool, 'tools'))) {
        const innerType = stringOf(field(inner, 'type'));
        if (innerType !== 'function' && innerType !== 'custom') continue;
        const innerName = stringOf(field(inner, 'name')) ?? '';
        if (name === 'functions') {
          views.push(toolView(inner, innerType, innerName));
          if (innerType === 'custom' && innerName === EXEC_TOOL)
            views.push(...declaredNestedTools(views.at(-1)!.description));
        } else {
          views.push({ ...toolView(inner, innerType, namespacedName(name, innerName)), namespace: name });
        }
      }
    }
  }
  return views;
}

function toolView(tool: JsonValue, type: string, name: string): FakeToolView {
  return {
    name,
    description: stringOf(field(tool, 'description')) ?? '',
    parameters: type === 'function' ? (field(tool, 'parameters') ?? null) : null,
  };
}
