// Type fixture (compiled by DirectClient.types.test.ts, never run): contract §4's usage of a direct
// client's properties type-checks under strict TypeScript without `!` or `?.`.
import type { ExecutionResult, InitializationResult, MCPTestKit, StdioServer, TraceResult } from '../../../index';

export async function specUsage(kit: MCPTestKit, server: StdioServer): Promise<string[]> {
  const client = await kit.direct(server).connect();
  const initialization: InitializationResult = client.initialization;
  const serverName: string = client.initialization.serverInfo.name;
  const protocolVersion: string = initialization.protocolVersion;
  await client.close();
  const result: ExecutionResult = client.result;
  const finalTrace: TraceResult = client.finalTrace;
  const outcome: string | null = client.result.snapshot.outcome;
  const toolCalls: number = client.finalTrace.view().toolCalls.length + result.traceView.toolCalls.length;
  return [serverName, protocolVersion, String(outcome), finalTrace.traceId, String(toolCalls)];
}
