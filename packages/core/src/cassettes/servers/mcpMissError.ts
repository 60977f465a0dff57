import { CassetteMissError } from '../../errors/CassetteMissError';
import type { CassetteRequest } from '../CassetteFormat';
import type { CassetteScope } from '../CassetteScope';
import { describeTapeRequest } from './mcpTapeMessages';

/** What a miss on a server's tape is about. */
export interface McpMissFacts {
  readonly scope: CassetteScope;
  readonly channel: string;
  readonly serverName: string;
  /** 1-based request number on the channel. */
  readonly index: number;
  readonly request: CassetteRequest;
  readonly nearest: CassetteRequest | null;
}

/**
 * The `CassetteMissError` of a request an MCP server's tape has no answer for (contract §24): the
 * model side's message (diff against the nearest recorded request, the command that re-records),
 * with its first two lines saying what was asked of which server:
 * ```
 * no recorded MCP server answer for a request of "<test>" (channel "mcp math trial 1", request 3)
 *   server math: tools/call add_tool
 * ```
 */
export function mcpMissError(facts: McpMissFacts): CassetteMissError {
  const { scope, channel, serverName, index, request, nearest } = facts;
  const error = new CassetteMissError({
    testName: scope.testName,
    testPath: scope.testPath,
    channel,
    requestNumber: index,
    request,
    nearest,
  });
  const lines = error.message.split('\n');
  lines[0] = lines[0]!.replace('no recorded model response', 'no recorded MCP server answer');
  lines[1] = `  server ${serverName}: ${describeTapeRequest(request)}`;
  error.message = lines.join('\n');
  return error;
}
