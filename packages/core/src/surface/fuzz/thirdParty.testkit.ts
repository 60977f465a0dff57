// Helpers for fuzzing the third-party servers from npm (server-everything, server-memory,
// server-filesystem) in `npm test`: small runs, a fixed seed, one line per finding.
import { MCPTestKit } from '../../kit/MCPTestKit';
import type { ServerDefinition } from '../../servers/ServerDefinition';
import { fuzzFailureMessage } from './FuzzFailure';
import { fuzzTools, type FuzzToolOptions, type FuzzToolReport } from './fuzzTool';

/** The seed every third-party fuzz test uses, so the findings in the docs replay as written. */
export const THIRD_PARTY_SEED = 42;

/** Lists the server's tools and fuzzes each in turn over one connection. */
export async function fuzzEveryTool(
  kit: MCPTestKit,
  server: ServerDefinition,
  options: FuzzToolOptions,
): Promise<FuzzToolReport[]> {
  const client = await kit.direct(server).connect();
  const tools = await client.listAllTools();
  await client.close();
  return fuzzTools(kit, server, tools, options);
}

/** Every failure of the reports, as the message a describe.m3.fuzz test prints. */
export function findings(reports: readonly FuzzToolReport[]): string[] {
  return reports.flatMap((report) =>
    [report.valid, report.invalid].flatMap((phase) => (phase?.failure ? [fuzzFailureMessage(phase.failure)] : [])),
  );
}
