// The Pi extension the pi harness loads (`pi --extension <this file>`): Pi has no MCP
// configuration, so this bridges every allowed MCP tool of the run into a Pi tool named
// `mcp_<server>_<tool>`, calling the servers through the kit's capture proxies (the wire evidence
// and the tool policy hold), and reports the name map and Pi's version over the RPC stream as a
// `setStatus` extension UI request (key `sf-m3`).
import { createRequire } from 'node:module';
import type * as BridgeModule from './piMcpBridge';
import type * as ConfigModule from './piBridgeConfig';
import type * as ResultModule from './piToolResult';
import type * as VersionModule from './piVersion';

/** The part of Pi's `ExtensionAPI` this extension uses. */
interface PiExtensionApi {
  registerTool(tool: {
    name: string;
    label: string;
    description: string;
    parameters: Record<string, unknown>;
    execute(
      toolCallId: string,
      params: unknown,
      signal?: AbortSignal,
    ): Promise<{ content: ResultModule.PiToolContent[]; details: unknown }>;
  }): void;
  on(event: 'session_start', handler: (event: unknown, ctx: PiExtensionContext) => void | Promise<void>): void;
  on(event: 'session_shutdown', handler: (event: { reason?: string }) => void | Promise<void>): void;
}

interface PiExtensionContext {
  readonly ui: { setStatus(key: string, text: string | undefined): void };
}

/** Pi's extension factory: connects, registers the tools, and reports once the session starts. */
async function piMcpExtension(pi: PiExtensionApi): Promise<void> {
  // Pi loads this file through jiti; the bridge and the MCP SDK are loaded by Node from here, so
  // they resolve as this package's own dependencies, untouched by Pi's module aliases.
  const load = createRequire(__filename);
  const config = load('./piBridgeConfig.js') as typeof ConfigModule;
  const { openPiMcpBridge } = load('./piMcpBridge.js') as typeof BridgeModule;
  const { toPiToolOutput } = load('./piToolResult.js') as typeof ResultModule;
  const { piVersionOf } = load('./piVersion.js') as typeof VersionModule;

  const bridge = await openPiMcpBridge(config.readPiBridgeConfig());
  for (const tool of bridge.tools) {
    pi.registerTool({
      name: tool.name,
      label: tool.title,
      description: tool.description,
      parameters: tool.inputSchema,
      async execute(toolCallId, params, signal) {
        const result = await bridge.call(tool.name, params, toolCallId, signal);
        const output = toPiToolOutput(result, tool.server, tool.tool);
        // Pi marks a result failed only when execute throws; the model still gets the tool's text.
        if (result.isError === true) throw new Error(output.text === '' ? `${tool.tool} failed` : output.text);
        return { content: output.content, details: output.details };
      },
    });
  }
  const status: ConfigModule.PiBridgeStatus = {
    schemaVersion: 1,
    piVersion: piVersionOf(process.argv[1]),
    tools: bridge.tools.map(({ name, server, tool }) => ({ name, server, tool })),
    errors: bridge.errors,
  };
  pi.on('session_start', (_event, ctx) => ctx.ui.setStatus(config.PI_BRIDGE_STATUS_KEY, JSON.stringify(status)));
  // Only Pi's exit ends the connections (a reload or new session would start this factory again).
  pi.on('session_shutdown', (event) => (event.reason === 'quit' ? bridge.close() : undefined));
}

export = piMcpExtension;
