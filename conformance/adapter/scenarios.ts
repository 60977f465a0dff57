// The non-auth client scenarios of @modelcontextprotocol/conformance 0.1.16, each written as a user
// of sf-m3 would write it: a kit, an HTTPServer, `kit.direct(...)`, nothing below the public API.
import { HTTPServer, MCPTestKit, type DirectClient, type DirectClientOptions } from 'sf-m3';

/** One scenario's client side; rejects when the scenario could not be played through. */
export type ScenarioClient = (serverUrl: string) => Promise<void>;

/** Connects a direct client to `serverUrl`, runs `body`, and closes the kit whatever happens. */
async function withClient(
  serverUrl: string,
  options: DirectClientOptions,
  body: (client: DirectClient) => Promise<void>,
): Promise<void> {
  const kit = new MCPTestKit({ suiteName: 'conformance' });
  try {
    const server = new HTTPServer({ name: 'conformance', url: serverUrl });
    const client = await kit.direct(server, options).connect();
    await body(client);
    await client.close();
  } finally {
    await kit.close();
  }
}

/** The tool named `name` must be listed; the scenario's server is broken otherwise. */
async function requireTool(client: DirectClient, name: string): Promise<void> {
  const tools = await client.listAllTools();
  if (!tools.some((tool) => tool.name === name)) {
    throw new Error(`the server lists no tool '${name}' (it lists: ${tools.map((t) => t.name).join(', ')})`);
  }
}

/** A tool result the server flagged as an error ends the scenario as failed. */
function requireSuccess(name: string, result: { isError: boolean; content: unknown[] }): void {
  if (result.isError) throw new Error(`${name} returned a tool error: ${JSON.stringify(result.content)}`);
}

/** `initialize`: the handshake, then a tool listing. */
const initialize: ScenarioClient = (serverUrl) =>
  withClient(serverUrl, {}, async (client) => {
    await client.listAllTools();
  });

/** `tools_call`: calls `add_numbers` with two numbers. */
const toolsCall: ScenarioClient = (serverUrl) =>
  withClient(serverUrl, {}, async (client) => {
    await requireTool(client, 'add_numbers');
    requireSuccess('add_numbers', await client.callTool('add_numbers', { a: 2, b: 3 }));
  });

/**
 * `elicitation-sep1034-client-defaults`: the handler accepts with no fields at all; the kit declares
 * `elicitation.form.applyDefaults` (contract §17), so the schema defaults reach the server.
 */
const elicitationDefaults: ScenarioClient = (serverUrl) =>
  withClient(serverUrl, { onElicitation: () => ({ action: 'accept', content: {} }) }, async (client) => {
    await requireTool(client, 'test_client_elicitation_defaults');
    requireSuccess('test_client_elicitation_defaults', await client.callTool('test_client_elicitation_defaults', {}));
  });

/** `sse-retry`: the server closes the tool call's SSE stream; the result arrives after reconnection. */
const sseRetry: ScenarioClient = (serverUrl) =>
  withClient(serverUrl, {}, async (client) => {
    await requireTool(client, 'test_reconnection');
    requireSuccess('test_reconnection', await client.callTool('test_reconnection', {}));
  });

/** Client scenario name → its client side (names exactly as the framework lists them). */
export const SCENARIOS: Readonly<Record<string, ScenarioClient>> = Object.freeze({
  initialize,
  tools_call: toolsCall,
  'elicitation-sep1034-client-defaults': elicitationDefaults,
  'sse-retry': sseRetry,
});
