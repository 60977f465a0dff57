#!/usr/bin/env node
// A small stdio MCP server for the direct-client tests: echo, its own pid, a slow call, a call
// that kills the process mid-request, and stderr output carrying a secret from its environment.
'use strict';
const { McpServer } = require('@modelcontextprotocol/sdk/server/mcp.js');
const { StdioServerTransport } = require('@modelcontextprotocol/sdk/server/stdio.js');
const { z } = require('zod');

const mcp = new McpServer({ name: 'stdio-fixture', version: '1.0.0' });
mcp.registerTool('echo', { inputSchema: { text: z.string() } }, ({ text }) => ({
  content: [{ type: 'text', text }],
}));
mcp.registerTool('pid', { inputSchema: {} }, () => ({
  content: [{ type: 'text', text: String(process.pid) }],
  structuredContent: { pid: process.pid },
}));
mcp.registerTool('slow', { inputSchema: { ms: z.number() } }, async ({ ms }, extra) => {
  // One progress notification when the caller asked for progress: the call is now running here.
  const progressToken = extra._meta?.progressToken;
  if (progressToken !== undefined) {
    await extra.sendNotification({ method: 'notifications/progress', params: { progressToken, progress: 0 } });
  }
  await new Promise((resolve) => setTimeout(resolve, ms));
  return { content: [{ type: 'text', text: `slept ${ms}` }] };
});
mcp.registerTool('exit', { inputSchema: {} }, () => {
  setTimeout(() => process.exit(3), 10);
  return new Promise(() => undefined);
});
if (process.env.FIXTURE_TOKEN) process.stderr.write(`starting with token ${process.env.FIXTURE_TOKEN}\n`);
mcp.connect(new StdioServerTransport()).catch((error) => {
  process.stderr.write(`fixture failed: ${error}\n`);
  process.exit(1);
});
