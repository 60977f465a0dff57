import type { JsonValue } from '../json';
import { arrayOf, field, stringOf } from './fakeHttp';
import type { FakeChatReply } from './fakeModelReply';
import { parseArguments, type FakeToolResultView, type FakeToolView } from './fakeModelRequest';

// Codex's code mode on the Responses wire (0.171.0, models its catalog runs that way, e.g. gpt-5.6-sol): the
// request's `tools` is empty; an `additional_tools` input item offers namespace `functions` with a custom tool
// `exec` (JavaScript in an isolate). MCP tools are deferred nested tools: a developer message names only their
// namespaces (`<tools>\nDeferred tool namespaces:\n- mcp__example: <server description>\n</tools>`), and their
// names are reachable only from JavaScript (`ALL_TOOLS`, `tools.mcp__example__shipping_quote(args)`).

/** The code-mode tool that runs JavaScript. */
export const EXEC_TOOL = 'exec';

/**
 * The script the fake sends, once per conversation, to learn the nested tools Codex did not name: it prints
 * `ALL_TOOLS` (`[{ name, description }]`), with an output budget above exec's default 10000 tokens so a long
 * listing is not cut. Recognized again in the history by this exact text.
 */
export const TOOL_DISCOVERY_SCRIPT =
  '// @exec: {"max_output_tokens": 100000}\n// sf-m3 fake model: list the nested tools\ntext(JSON.stringify(ALL_TOOLS));';

const JS_NAME = /^[A-Za-z_$][\w$]*$/;
const CALL_SCRIPT = /^const r = await tools\.([A-Za-z_$][\w$]*)\(([\s\S]*)\);\ntext\(JSON\.stringify\(r\)\);$/;
const OUTPUT_HEADER = /^Script (completed|failed|running)\b[^\n]*\n(?:Wall time[^\n]*\n)?(?:Output:\n)?/;

/** Whether an `additional_tools` item offers the code-mode `exec` tool (in namespace `functions`). */
export function offersExec(item: JsonValue): boolean {
  return arrayOf(field(item, 'tools')).some(
    (tool) =>
      stringOf(field(tool, 'name')) === 'functions' &&
      arrayOf(field(tool, 'tools')).some(
        (inner) => stringOf(field(inner, 'type')) === 'custom' && stringOf(field(inner, 'name')) === EXEC_TOOL,
      ),
  );
}

/**
 * The nested tools the `exec` description declares (sections `### \`name\`` with an "exec tool declaration":
 * `apply_patch`, `view_image`, the MCP resource helpers...).
 */
export function declaredNestedTools(execDescription: string): FakeToolView[] {
  const sections = execDescription.split(/^### `([^`\n]+)`\n/m);
  const tools: FakeToolView[] = [];
  for (let i = 1; i + 1 < sections.length; i += 2) {
    const name = sections[i]!;
    if (JS_NAME.test(name)) tools.push(nestedTool(name, sections[i + 1]!.trim(), []));
  }
  return tools;
}

/** The deferred namespaces Codex names in the system text (`- mcp__example: ...` under "Deferred tool namespaces:"). */
export function deferredNamespaces(system: string): string[] {
  const names: string[] = [];
  for (const block of system.matchAll(/deferred tool namespaces:\n((?:[ \t]*- [^\n]*\n?)*)/gi)) {
    for (const line of block[1]!.split('\n')) {
      const name = /^\s*- ([^\s:]+)/.exec(line)?.[1];
      if (name !== undefined) names.push(name);
    }
  }
  return names;
}

/** The nested tools an `ALL_TOOLS` listing printed by the discovery script names; null when it is not one. */
export function listedNestedTools(output: string, namespaces: readonly string[]): FakeToolView[] | null {
  const listed = parseArguments(output);
  if (!Array.isArray(listed)) return null;
  return listed.flatMap((entry) => {
    const name = stringOf(field(entry, 'name'));
    if (name === undefined || !JS_NAME.test(name)) return [];
    return [nestedTool(name, stringOf(field(entry, 'description')) ?? '', namespaces)];
  });
}

function nestedTool(name: string, description: string, namespaces: readonly string[]): FakeToolView {
  const namespace = namespaces.find((ns) => name.startsWith(`${ns.replace(/[^\w$]/g, '_')}__`));
  return { name, description, parameters: null, codeMode: true, ...(namespace !== undefined ? { namespace } : {}) };
}

/** The JavaScript the fake sends for a call of a nested tool: Codex's own shape, printing the result as JSON. */
export function callScript(jsName: string, argumentsText: string): string {
  const args = typeof parseArguments(argumentsText) === 'string' ? JSON.stringify(argumentsText) : argumentsText;
  return `const r = await tools.${jsName}(${args});\ntext(JSON.stringify(r));`;
}

/** The nested call a script in the shape of `callScript` makes, or null for any other script. */
export function scriptedCall(script: string): { name: string; arguments: JsonValue } | null {
  const match = CALL_SCRIPT.exec(script);
  return match ? { name: match[1]!, arguments: parseArguments(match[2]!) } : null;
}

/**
 * What an `exec` call's output says: `Script completed|failed|running`, `Wall time ...`, `Output:` and the
 * printed text; null when the output is not an exec report.
 */
export function execReport(output: JsonValue | undefined): { status: string; printed: string } | null {
  const parts =
    typeof output === 'string' ? [output] : arrayOf(output).map((part) => stringOf(field(part, 'text')) ?? '');
  const header = OUTPUT_HEADER.exec(parts[0] ?? '');
  if (!header) return null;
  const printed = [parts[0]!.slice(header[0].length), ...parts.slice(1)].filter((text) => text.length > 0);
  return { status: header[1]!, printed: printed.join('\n') };
}

/**
 * The neutral result of an exec call: for a script that printed an MCP `CallToolResult` (as `callScript`'s do),
 * the result's text parts (other blocks as JSON) and its `isError`; else the printed text. A script that failed
 * (`Script failed`: a thrown error, a nested tool that is not there) is an error.
 */
export function execResult(callId: string | null, report: { status: string; printed: string }): FakeToolResultView {
  const failed = report.status === 'failed';
  const result = parseArguments(report.printed);
  const content = field(result, 'content');
  if (!failed && Array.isArray(content)) {
    const text = content
      .map((block) =>
        stringOf(field(block, 'type')) === 'text' ? (stringOf(field(block, 'text')) ?? '') : JSON.stringify(block),
      )
      .join('\n');
    return { callId, name: null, text, isError: field(result, 'isError') === true };
  }
  return { callId, name: null, text: report.printed, isError: failed };
}

/**
 * The reply the fake sends before any rule when a code-mode request names deferred namespaces and the
 * conversation holds no tool discovery yet: one `exec` call running `TOOL_DISCOVERY_SCRIPT`.
 */
export function discoveryReply(body: JsonValue | null, system: string): FakeChatReply | null {
  const items = arrayOf(field(body, 'input'));
  if (!items.some((item) => stringOf(field(item, 'type')) === 'additional_tools' && offersExec(item))) return null;
  if (deferredNamespaces(system).length === 0) return null;
  const discovered = items.some(
    (item) =>
      stringOf(field(item, 'type')) === 'custom_tool_call' && stringOf(field(item, 'input')) === TOOL_DISCOVERY_SCRIPT,
  );
  return discovered ? null : { toolCalls: [{ name: EXEC_TOOL, arguments: TOOL_DISCOVERY_SCRIPT }] };
}
