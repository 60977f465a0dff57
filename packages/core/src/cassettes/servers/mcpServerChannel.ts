/**
 * The channel key of one MCP server's side of an agent execution (contract §24):
 * `mcp <server name> trial <n>`, beside the model's `<harness> <model> trial <n>`.
 */
export function mcpServerChannel(serverName: string, trial: number): string {
  return `mcp ${serverName} trial ${trial}`;
}
