import { resolve } from 'node:path';

/**
 * Absolute path of the shipped proxy script (`packages/core/proxy/mcp-capture-proxy.js`); the same
 * relative location from `src/proxy` and from the built `dist/proxy`.
 */
export const captureProxyScriptPath = resolve(__dirname, '..', '..', 'proxy', 'mcp-capture-proxy.js');

/** The command that stands in front of a stdio MCP server. */
export interface ProxyCommand {
  readonly command: string;
  readonly args: string[];
}

/**
 * The command line that runs the capture proxy with a config written by `writeProxyConfig`: the
 * current Node binary, the script and the config path (no secrets: they travel in the file).
 */
export function buildProxyCommand(configPath: string): ProxyCommand {
  return { command: process.execPath, args: [captureProxyScriptPath, configPath] };
}
