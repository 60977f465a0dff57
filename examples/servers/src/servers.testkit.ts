// Test helpers: connect an SDK client to a server factory in-process.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

/** Connects a fresh SDK client (with the roots capability) to `server` over InMemoryTransport. */
export async function connectInMemory(server: McpServer): Promise<Client> {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const client = new Client(
    { name: 'example-servers-test', version: '1.0.0' },
    { capabilities: { roots: { listChanged: true } } },
  );
  await server.connect(serverTransport);
  await client.connect(clientTransport);
  return client;
}

/** Structured content of a tool result, typed loosely for assertions. */
export function structured(result: unknown): Record<string, unknown> | undefined {
  return (result as { structuredContent?: Record<string, unknown> }).structuredContent;
}

/** Text of the first content block of a tool result. */
export function firstText(result: unknown): string {
  const content = (result as { content: { type: string; text?: string }[] }).content;
  return content[0]?.text ?? '';
}
