// The SDK v2 server the 2026-07-28 client conformance tests drive: a low-level `Server` from
// `@modelcontextprotocol/server`, so every tool schema goes out exactly as written here. It mirrors
// the client scenarios of `@modelcontextprotocol/conformance` (request-metadata,
// http-standard-headers, sep-2322-client-request-state, json-schema-ref-no-deref,
// json-schema-2020-12-preservation) and the spec's cache hints, with real SDK behaviour.
import type { Server } from '@modelcontextprotocol/server';
import { startRecordingV2Server, type RecordingV2Server } from './recordingV2Server.testkit';

/** The `requestState` the `two_questions` tool mints: not canonical JSON, with non-ASCII text. */
export const MINTED_STATE = '{ "step":1,\t"who": "\u00e9l\u00e8ve \u2028 \ud83d\ude80" ,"n":1.0 }';

/** A schema in the full 2020-12 vocabulary (as the conformance fixture writes it). */
export const SCHEMA_2020_12 = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'urn:sf-m3:conformance:2020-12',
  type: 'object',
  $defs: {
    address: { $anchor: 'addr', type: 'object', properties: { street: { type: 'string' } } },
  },
  properties: {
    home: { $ref: '#/$defs/address' },
    work: { $ref: '#addr' },
    kind: { anyOf: [{ const: 'person' }, { const: 'company' }] },
    tags: { type: 'array', prefixItems: [{ type: 'string' }], items: false },
    vat: { type: 'string' },
  },
  allOf: [{ required: ['kind'] }],
  if: { properties: { kind: { const: 'company' } } },
  then: { required: ['vat'] },
  else: { not: { required: ['vat'] } },
  dependentRequired: { work: ['home'] },
  unevaluatedProperties: false,
  additionalProperties: true,
} as const;

/** A schema with a same-document `$ref` and a `$ref` to a network URL (the canary). */
export function remoteRefSchema(canaryUrl: string): Record<string, unknown> {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    $defs: { id: { type: 'string', minLength: 1 } },
    properties: { id: { $ref: '#/$defs/id' }, profile: { $ref: canaryUrl } },
    required: ['id'],
  };
}

/**
 * Tools whose `x-mcp-header` declarations break one SEP-2243 rule each (as the conformance
 * scenario `http-invalid-tool-headers` serves them): name → `properties`.
 */
export const INVALID_HEADER_TOOLS: readonly (readonly [string, Record<string, unknown>])[] = [
  ['invalid_empty_header', { a: { type: 'string', 'x-mcp-header': '' } }],
  ['invalid_object_header', { a: { type: 'object', 'x-mcp-header': 'Obj' } }],
  ['invalid_array_header', { a: { type: 'array', 'x-mcp-header': 'Arr' } }],
  [
    'invalid_duplicate_diff_case',
    { a: { type: 'string', 'x-mcp-header': 'MyField' }, b: { type: 'string', 'x-mcp-header': 'myfield' } },
  ],
  ['invalid_space_in_name', { a: { type: 'string', 'x-mcp-header': 'My Field' } }],
  ['invalid_colon_in_name', { a: { type: 'string', 'x-mcp-header': 'My:Field' } }],
  ['invalid_non_ascii_name', { a: { type: 'string', 'x-mcp-header': 'R\u00e9gion' } }],
  ['invalid_control_char_name', { a: { type: 'string', 'x-mcp-header': 'My\u0001Field' } }],
];

/** Options of the conformance server. */
export interface ConformanceServerOptions {
  /** Where `lookup_user`'s remote `$ref` points. */
  readonly canaryUrl: string;
  /** Cache hints the list results carry (the SDK fills `ttlMs: 0, cacheScope: 'private'` without). */
  readonly cacheHints?: { ttlMs: number; cacheScope: 'public' | 'private' };
}

const emptyObject = { type: 'object', properties: {} };

/** One server instance (`createMcpHandler` builds one per request). */
export function createConformanceServer(options: ConformanceServerOptions): Server {
  const sdk = require('@modelcontextprotocol/server') as typeof import('@modelcontextprotocol/server');
  const hints = options.cacheHints ?? {};
  const server = new sdk.Server(
    { name: 'conformance-v2', version: '1.0.0' },
    { capabilities: { tools: {}, resources: {}, prompts: {} } },
  );
  const tools = [
    { name: 'test_headers', description: 'Answers ok', inputSchema: emptyObject },
    { name: 'my-hyphenated-tool', description: 'A hyphen in its name', inputSchema: emptyObject },
    { name: 'two_questions', description: 'Asks two questions, with requestState', inputSchema: emptyObject },
    { name: 'one_question', description: 'Asks one question, without requestState', inputSchema: emptyObject },
    { name: 'lookup_user', description: 'Remote $ref in its schema', inputSchema: remoteRefSchema(options.canaryUrl) },
    { name: 'json_schema_2020_12_tool', description: 'The 2020-12 vocabulary', inputSchema: SCHEMA_2020_12 },
    {
      name: 'test_custom_headers',
      description: 'Arguments marked x-mcp-header are mirrored into Mcp-Param-* headers',
      inputSchema: {
        type: 'object',
        properties: {
          region: { type: 'string', 'x-mcp-header': 'Region' },
          priority: { type: 'integer', 'x-mcp-header': 'Priority' },
          verbose: { type: 'boolean', 'x-mcp-header': 'Verbose' },
          method_val: { type: 'string', 'x-mcp-header': 'Method' },
          non_ascii_val: { type: 'string', 'x-mcp-header': 'NonAscii' },
          whitespace_val: { type: 'string', 'x-mcp-header': 'Whitespace' },
          crlf_val: { type: 'string', 'x-mcp-header': 'CrLf' },
          float_val: { type: 'number' },
          query: { type: 'string' },
        },
        required: ['region', 'query'],
      },
    },
    ...INVALID_HEADER_TOOLS.map(([name, properties]) => ({
      name,
      description: 'An invalid x-mcp-header declaration',
      inputSchema: { type: 'object', properties },
    })),
    {
      name: 'valid_tool',
      description: 'A valid x-mcp-header declaration',
      inputSchema: { type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' } } },
    },
    { name: 'start_job', description: 'Answers with a task (io.modelcontextprotocol/tasks)', inputSchema: emptyObject },
    {
      name: 'json_schema_echo',
      description: 'Echoes the schema it is given',
      inputSchema: { type: 'object', properties: { schema: { type: 'object' } }, required: ['schema'] },
    },
  ];
  // The tools carry schemas the SDK's types do not describe (a remote $ref, 2020-12 keywords): that is the point.
  server.setRequestHandler('tools/list', async () => ({ tools, ...hints }) as never);
  server.setRequestHandler('tools/call', async (request, ctx) => {
    const { name, arguments: args } = request.params;
    const responses = ctx.mcpReq.inputResponses;
    const text = (t: string) => ({ content: [{ type: 'text' as const, text: t }] });
    const yes = { type: 'object' as const, properties: { ok: { type: 'boolean' as const } }, required: ['ok'] };
    switch (name) {
      case 'two_questions': {
        const first = sdk.acceptedContent(responses, 'first');
        const second = sdk.acceptedContent(responses, 'second');
        if (first === undefined || second === undefined) {
          return sdk.inputRequired({
            inputRequests: {
              first: sdk.inputRequired.elicit({ message: 'first?', requestedSchema: yes }),
              second: sdk.inputRequired.elicit({ message: 'second?', requestedSchema: yes }),
            },
            requestState: MINTED_STATE,
          });
        }
        return text(`answers: ${JSON.stringify(first)} ${JSON.stringify(second)}`);
      }
      case 'one_question': {
        const answer = sdk.acceptedContent(responses, 'only');
        if (answer === undefined) {
          return sdk.inputRequired({
            inputRequests: { only: sdk.inputRequired.elicit({ message: 'only?', requestedSchema: yes }) },
          });
        }
        return text(`answer: ${JSON.stringify(answer)}`);
      }
      case 'start_job':
        // The tasks extension's CreateTaskResult. SDK 2.4.0 has no task helper; it forwards a
        // handler's resultType on tools/call but checks the rest as a CallToolResult.
        return {
          resultType: 'task',
          task: { taskId: 'job-1', status: 'working', createdAt: '2026-07-28T00:00:00Z', ttl: 60_000 },
        } as never;
      case 'json_schema_echo':
        return text(JSON.stringify((args as { schema?: unknown } | undefined)?.schema));
      default:
        return text(`${name}: ok`);
    }
  });
  const resources = [
    { uri: 'file:///path/to/file%20name.txt', name: 'spaces' },
    { uri: 'https://example.com/resource?id=123', name: 'query' },
  ];
  server.setRequestHandler('resources/list', async () => ({ resources, ...hints }));
  server.setRequestHandler('resources/read', async (request) => ({
    contents: [{ uri: request.params.uri, mimeType: 'text/plain', text: 'read' }],
  }));
  server.setRequestHandler('prompts/list', async () => ({ prompts: [{ name: 'test_prompt' }], ...hints }));
  server.setRequestHandler('prompts/get', async () => ({
    messages: [{ role: 'user' as const, content: { type: 'text' as const, text: 'prompt' } }],
  }));
  return server;
}

/** The conformance server behind the recorder (modern only: `legacy: 'reject'`). */
export async function startConformanceV2(
  options: Omit<ConformanceServerOptions, 'canaryUrl'> = {},
): Promise<RecordingV2Server> {
  let canaryUrl = '';
  const recorder = await startRecordingV2Server(() => createConformanceServer({ ...options, canaryUrl }));
  canaryUrl = recorder.canaryUrl;
  return recorder;
}
