// The `starter suite` step of `m3 init`: a first test under tests/ that connects to the user's
// server and checks its tool list, or, without a server, a skipped suite that says what to fill in.
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { InitStep } from './InitStep';

/** The server the starter connects to, as given to `m3 init`. */
export type StarterServer =
  | { readonly transport: 'stdio'; readonly command: string; readonly args: readonly string[] }
  | { readonly transport: 'http'; readonly url: string };

/** Default suite name (upstream `m3 init`'s). */
export const DEFAULT_SUITE = 'mcp-behavior';

/** The starter's file name for a suite: `tests/<suite as a file-name slug>.m3.test.<ts|js>`. */
export function starterPath(suite: string, language: 'ts' | 'js'): string {
  const slug = suite
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return `tests/${slug === '' ? 'starter' : slug}.m3.test.${language}`;
}

/** A single-quoted JavaScript string literal of `value` (a user's argument may hold any character). */
export function quote(value: string): string {
  const escaped = value
    .replace(/\\/g, '\\\\')
    .replace(/'/g, "\\'")
    .replace(/\n/g, '\\n')
    .replace(/\r/g, '\\r')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
  return `'${escaped}'`;
}

function serverLines(server: StarterServer | null, language: 'ts' | 'js'): string[] {
  const load = (names: string, from: string): string =>
    language === 'ts' ? `import { ${names} } from '${from}';` : `const { ${names} } = require('${from}');`;
  if (server?.transport === 'http') {
    return [
      load('HTTPServer', 'sf-m3'),
      '',
      `const server = new HTTPServer({ name: 'server', url: ${quote(server.url)} });`,
    ];
  }
  const command = server === null ? 'node' : server.command;
  const args = server === null ? ['path/to/your/server.js'] : server.args;
  // process.cwd() rather than __dirname: the same line works in CommonJS and ES module projects.
  return [
    load('StdioServer', 'sf-m3'),
    '',
    '// Relative paths in args are relative to the project folder, where `npx m3 test` runs.',
    'const server = new StdioServer({',
    "  name: 'server',",
    `  command: ${quote(command)},`,
    `  args: [${args.map(quote).join(', ')}],`,
    '  cwd: process.cwd(),',
    '});',
  ];
}

/** The starter suite's source. */
export function renderStarter(suite: string, server: StarterServer | null, language: 'ts' | 'js'): string {
  const header =
    server === null
      ? [
          '// Starter suite written by `npx m3 init`. It is skipped until you fill in how to start your MCP',
          '// server below (a stdio command and its arguments, or an HTTPServer with the URL of a running',
          "// server: new HTTPServer({ name: 'server', url: 'http://127.0.0.1:3000/mcp' })), then remove",
          '// `.skip` and run `npx m3 test`.',
        ]
      : [
          '// Starter suite written by `npx m3 init`: connects to your MCP server and checks its tool list.',
          '// Run it with `npx m3 test`. Next, call a tool and check what it returns, e.g.',
          "//   const result = await client.callTool('<tool>', { ... });",
          '//   expect(result).not.toBeToolError();',
        ];
  const describe = server === null ? 'describe.m3.skip' : 'describe.m3';
  return [
    ...header,
    ...serverLines(server, language),
    '',
    `${describe}(${quote(suite)}, () => {`,
    "  test('lists its tools', async () => {",
    '    const client = await m3Kit.direct(server).connect();',
    '    const tools = await client.listAllTools();',
    '    await client.close(); // the trace is finalized when the client closes',
    '',
    '    expect(client.result).toBeCompleted();',
    '    expect(tools.length).toBeGreaterThan(0);',
    '    for (const tool of tools) {',
    '      expect(tool.name).toMatch(/\\S/);',
    "      expect(tool.inputSchema.type).toBe('object'); // MCP tools take an object of arguments",
    '    }',
    '  });',
    '});',
    '',
  ].join('\n');
}

/** Plans the `starter suite` step; `language` is `js` when the project cannot run `.ts` tests. */
export function planStarter(
  folder: string,
  suite: string,
  server: StarterServer | null,
  language: 'ts' | 'js',
  selects: readonly string[],
): InitStep {
  const path = starterPath(suite, language);
  if (existsSync(join(folder, path))) {
    return { step: 'starter suite', state: 'done', message: `already done: ${path} exists (left as it is)` };
  }
  const target =
    server === null
      ? 'skipped until you fill in your server'
      : server.transport === 'http'
        ? `connects to ${server.url} and lists its tools`
        : // Arguments may carry a token, so the line names only the command and how many there are.
          `starts ${basename(server.command)} with ${server.args.length} argument(s) and lists its tools`;
  const details =
    selects.length === 0
      ? []
      : [`your Jest config sets ${selects.join(', ')}: make sure it matches ${path}, or Jest will not run it.`];
  return {
    step: 'starter suite',
    state: 'change',
    message: `wrote ${path} (${target})`,
    details,
    write: { path, content: renderStarter(suite, server, language), create: true },
  };
}
