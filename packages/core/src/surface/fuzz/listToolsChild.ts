/**
 * The child process `listToolsSync` runs: reads `{ server, timeoutMs }` (a stdio or HTTP server
 * definition as plain JSON, secrets as `secretFromEnv` references) from stdin, lists the server's
 * tools over a kit with no store, and writes `{ tools }` or `{ error }` as one JSON line to stdout.
 */
import { HTTPServer } from '../../servers/HTTPServer';
import { StdioServer } from '../../servers/StdioServer';
import { MCPTestKit } from '../../kit/MCPTestKit';
import type { ListingRequest } from './listToolsSync';

async function list(request: ListingRequest): Promise<unknown> {
  const { kind, ...fields } = request.server;
  const server =
    kind === 'stdio'
      ? new StdioServer(fields as unknown as ConstructorParameters<typeof StdioServer>[0])
      : new HTTPServer(fields as unknown as ConstructorParameters<typeof HTTPServer>[0]);
  const kit = new MCPTestKit();
  try {
    const client = await kit.direct(server, { timeoutMs: request.timeoutMs }).connect();
    const tools = await client.listAllTools();
    await client.close();
    return {
      tools: tools.map((tool) => ({
        name: tool.name,
        ...(tool.inputSchema !== undefined && { inputSchema: tool.inputSchema }),
        ...(tool.outputSchema !== undefined && { outputSchema: tool.outputSchema }),
      })),
    };
  } finally {
    await kit.close();
  }
}

let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk: string) => {
  input += chunk;
});
process.stdin.on('end', () => {
  list(JSON.parse(input) as ListingRequest)
    .catch((error: unknown) => ({ error: error instanceof Error ? error.message : String(error) }))
    .then((answer) => {
      process.stdout.write(`${JSON.stringify(answer)}\n`, () => process.exit(0));
    });
});
