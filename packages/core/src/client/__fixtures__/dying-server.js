#!/usr/bin/env node
// A stdio MCP server that ends badly, for the tests of the errors a server exit gives
// (DirectClient.exitEvidence.test.ts). argv[2] picks how:
//   code          tool `crash` writes "boom: db missing" to stderr and exits with code 3
//   signal        tool `crash` kills the process with SIGKILL
//   chatty        tool `crash` writes 20 stderr lines (one with FIXTURE_TOKEN) and exits with 5
//   huge          tool `crash` answers with one 11 MiB line (over the SDK's 10 MiB stdio buffer)
//   no-initialize writes two stderr lines and exits with 4 on the first message, never answering
'use strict';
const { McpServer } = require('@modelcontextprotocol/sdk/server/mcp.js');
const { StdioServerTransport } = require('@modelcontextprotocol/sdk/server/stdio.js');

const mode = process.argv[2];

if (mode === 'no-initialize') {
  process.stdin.once('data', () => {
    process.stderr.write('loading config\nfatal: config.json missing\n', () => process.exit(4));
  });
} else {
  const mcp = new McpServer({ name: 'dying-server', version: '1.0.0' });
  mcp.registerTool('ok', { inputSchema: {} }, () => ({ content: [{ type: 'text', text: 'fine' }] }));
  mcp.registerTool('crash', { inputSchema: {} }, () => {
    if (mode === 'code') {
      process.stderr.write('starting\nboom: db missing\n', () => process.exit(3));
    } else if (mode === 'signal') {
      process.kill(process.pid, 'SIGKILL');
    } else if (mode === 'chatty') {
      let text = '';
      for (let i = 1; i <= 20; i += 1) text += `line ${i}${i === 19 ? ` token=${process.env.FIXTURE_TOKEN}` : ''}\n`;
      process.stderr.write(text, () => process.exit(5));
    } else if (mode === 'huge') {
      return { content: [{ type: 'text', text: 'x'.repeat(11 * 1024 * 1024) }] };
    }
    return new Promise(() => undefined);
  });
  mcp.connect(new StdioServerTransport()).catch((error) => {
    process.stderr.write(`dying-server failed: ${error}\n`);
    process.exit(1);
  });
}
