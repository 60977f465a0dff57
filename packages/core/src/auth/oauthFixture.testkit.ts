// Shared setup of the auth tests: a test authorization server and the MCP server it guards.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { ProtectedMcpServer, type ProtectedMcpServerOptions } from '../testing/oauth/ProtectedMcpServer';
import { TestAuthorizationServer } from '../testing/oauth/TestAuthorizationServer';
import type { TestAuthorizationServerOptions } from '../testing/oauth/testOAuthTypes';

/** A small MCP server: `echo` (any scope) and `write_note` (step-up scope in some tests). */
export function notesServer(): McpServer {
  const server = new McpServer({ name: 'notes', version: '1.0.0' });
  server.registerTool('echo', { inputSchema: { text: z.string() } }, ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  server.registerTool('write_note', { inputSchema: { note: z.string() } }, ({ note }) => ({
    content: [{ type: 'text', text: `saved ${note.length} characters` }],
  }));
  return server;
}

/** A started authorization server and protected MCP server; `close()` stops both. */
export interface OAuthFixture {
  as: TestAuthorizationServer;
  mcp: ProtectedMcpServer;
  url: string;
  close(): Promise<void>;
}

export async function startOAuthFixture(
  asOptions: TestAuthorizationServerOptions = {},
  mcpOptions: Omit<ProtectedMcpServerOptions, 'authorizationServer' | 'factory'> = {},
): Promise<OAuthFixture> {
  const as = new TestAuthorizationServer(asOptions);
  await as.start();
  const mcp = new ProtectedMcpServer({ authorizationServer: as, factory: notesServer, ...mcpOptions });
  const url = await mcp.start();
  return {
    as,
    mcp,
    url,
    close: async () => {
      await mcp.close();
      await as.close();
    },
  };
}
