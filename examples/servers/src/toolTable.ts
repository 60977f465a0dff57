// A small, paginated tool table installed on an SDK server. McpServer lists every registered tool
// in one page and answers unknown tools with its own wording; the example servers need a second
// tools page and the upstream "unknown tool: <name>" error, so tools go through the low-level
// `Server` handlers while zod still validates arguments and produces the JSON Schemas.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

/** A structured tool outcome: the object is sent as structured content and as its JSON text. */
export type ToolOutcome = { structured: Record<string, unknown> } | { error: string };

/** One tool of an example server. */
export interface ExampleTool {
  name: string;
  description: string;
  /** Strict zod object describing the arguments (rendered as `additionalProperties: false`). */
  input: z.ZodObject;
  /** Optional strict zod object describing the structured result. */
  output?: z.ZodObject;
  run(args: Record<string, unknown>): ToolOutcome | Promise<ToolOutcome>;
}

/** How a tool table is split into `tools/list` pages. */
export interface ToolPages {
  /** Tools on the first page (no cursor). */
  first: ExampleTool[];
  /** Later pages, keyed by the cursor that fetches them; listed but not callable when `listedOnly`. */
  pages?: { cursor: string; tools: ExampleTool[]; listedOnly?: boolean }[];
  /** Error text for arguments that fail the input schema (default `invalid arguments for <tool>: …`). */
  invalidArguments?: (toolName: string, detail: string) => string;
}

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/** Converts a zod object to the plain JSON Schema shape the upstream servers advertise. */
export function toolJsonSchema(schema: z.ZodObject): Tool['inputSchema'] {
  const rendered = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input' }) as Record<string, unknown>;
  delete rendered.$schema;
  stripSafeIntegerBounds(rendered);
  const required = Array.isArray(rendered.required) ? rendered.required : [];
  return { ...rendered, type: 'object', required } as Tool['inputSchema'];
}

function stripSafeIntegerBounds(node: unknown): void {
  if (node === null || typeof node !== 'object') return;
  const record = node as Record<string, unknown>;
  if (record.maximum === MAX_SAFE) delete record.maximum;
  if (record.minimum === -MAX_SAFE) delete record.minimum;
  for (const value of Object.values(record)) stripSafeIntegerBounds(value);
}

function describeTool(tool: ExampleTool): Tool {
  const listed: Tool = { name: tool.name, description: tool.description, inputSchema: toolJsonSchema(tool.input) };
  if (tool.output) listed.outputSchema = toolJsonSchema(tool.output) as Tool['outputSchema'];
  return listed;
}

/** A tool error result: one text block and `isError: true`. */
export function toolError(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

function validationMessage(error: z.ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(arguments)'}: ${issue.message}`)
    .join('; ');
}

/**
 * Installs `tools/list` (paginated) and `tools/call` on a low-level server. Call before connecting;
 * the server must advertise the `tools` capability.
 */
export function installToolTable(server: Server, pages: ToolPages): void {
  const callable = new Map<string, ExampleTool>();
  for (const tool of pages.first) callable.set(tool.name, tool);
  for (const page of pages.pages ?? []) {
    if (!page.listedOnly) for (const tool of page.tools) callable.set(tool.name, tool);
  }
  const firstPage = pages.first.map(describeTool);
  const laterPages = new Map((pages.pages ?? []).map((page) => [page.cursor, page.tools.map(describeTool)]));
  const cursors = (pages.pages ?? []).map((page) => page.cursor);

  server.setRequestHandler(ListToolsRequestSchema, (request) => {
    const cursor = request.params?.cursor;
    if (cursor === undefined) {
      return cursors.length > 0 ? { tools: firstPage, nextCursor: cursors[0] } : { tools: firstPage };
    }
    const tools = laterPages.get(cursor);
    if (tools === undefined) return { tools: [] };
    const next = cursors[cursors.indexOf(cursor) + 1];
    return next === undefined ? { tools } : { tools, nextCursor: next };
  });

  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const tool = callable.get(request.params.name);
    if (!tool) return toolError(`unknown tool: ${request.params.name}`);
    const parsed = tool.input.safeParse(request.params.arguments ?? {});
    if (!parsed.success) {
      const detail = validationMessage(parsed.error);
      return toolError(
        pages.invalidArguments
          ? pages.invalidArguments(tool.name, detail)
          : `invalid arguments for ${tool.name}: ${detail}`,
      );
    }
    const outcome = await tool.run(parsed.data as Record<string, unknown>);
    if ('error' in outcome) return toolError(outcome.error);
    return {
      content: [{ type: 'text', text: JSON.stringify(outcome.structured) }],
      structuredContent: outcome.structured,
    };
  });
}
