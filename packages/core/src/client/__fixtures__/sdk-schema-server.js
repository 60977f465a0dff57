#!/usr/bin/env node
// An MCP server built the way third-party servers are, with the official SDK's McpServer and zod
// schemas (which the SDK publishes as draft-07): nested arrays of objects, optional fields, enums
// and output schemas. Required by the schema tests for InProcessServer; run directly, it serves stdio.
'use strict';
const { McpServer } = require('@modelcontextprotocol/sdk/server/mcp.js');
const { StdioServerTransport } = require('@modelcontextprotocol/sdk/server/stdio.js');
const { z } = require('zod');

/** The McpServer with the order and file tools. */
function createSchemaServer() {
  const mcp = new McpServer({ name: 'sdk-schema-server', version: '1.0.0' });
  const line = z.object({
    sku: z.string(),
    qty: z.number().int().positive(),
    options: z.array(z.object({ key: z.string(), value: z.string() })).optional(),
  });
  mcp.registerTool(
    'place_order',
    {
      description: 'Places an order',
      inputSchema: {
        customer: z.object({ name: z.string(), email: z.string().optional() }),
        lines: z.array(line).min(1),
        priority: z.enum(['low', 'normal', 'high']).optional(),
      },
      outputSchema: {
        orderId: z.string(),
        lines: z.array(z.object({ sku: z.string(), qty: z.number() })),
        priority: z.enum(['low', 'normal', 'high']),
      },
    },
    ({ lines, priority }) => {
      const structured = {
        orderId: `order-${lines.length}`,
        lines: lines.map((l) => ({ sku: l.sku, qty: l.qty })),
        priority: priority ?? 'normal',
      };
      return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
    },
  );
  mcp.registerTool(
    'write_file',
    {
      description: 'Pretends to write a file',
      inputSchema: { path: z.string(), content: z.string(), mode: z.enum(['overwrite', 'append']).optional() },
    },
    ({ path, content }) => ({ content: [{ type: 'text', text: `wrote ${content.length} bytes to ${path}` }] }),
  );
  return mcp;
}

module.exports = { createSchemaServer };

if (require.main === module) {
  createSchemaServer()
    .connect(new StdioServerTransport())
    .catch((error) => {
      process.stderr.write(`sdk-schema-server failed: ${error}\n`);
      process.exit(1);
    });
}
