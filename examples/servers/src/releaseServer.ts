// A release server built on the official SDK v2 (`@modelcontextprotocol/server`), serving both
// protocol eras from one factory (docs/contract.md §23): `deploy` asks the user to confirm — an
// `input_required` round on 2026-07-28, which the SDK turns into a server-to-client elicitation
// request on a 2025 connection — and `enable_rollback` adds the `rollback` tool to the tool list
// (`notifications/tools/list_changed`).
import { McpServer, acceptedContent, inputRequired, inputResponse } from '@modelcontextprotocol/server';
import type { CallToolResult, McpRequestContext, RegisteredTool } from '@modelcontextprotocol/server';
import { z } from 'zod';

/** Server name reported in `server/discover` and `initialize`. */
export const RELEASE_SERVER_NAME = 'm3-release-server';

/** The era a server instance serves, as the SDK's factories receive it. */
export type ReleaseEra = McpRequestContext['era'];

/**
 * What the release server remembers between calls. One per process: over stdio one connection's
 * instance, over HTTP every request's fresh instance (2026-07-28 builds one per request) reads it.
 */
export interface ReleaseState {
  /** The version currently deployed. */
  version: string;
  /** The versions deployed before it, newest last (what `rollback` returns to). */
  history: string[];
  /** Whether `enable_rollback` has been called (then `rollback` is listed). */
  rollbackEnabled: boolean;
}

/** A fresh state: version 1.0.0 deployed, no history, rollback not offered. */
export function newReleaseState(): ReleaseState {
  return { version: '1.0.0', history: [], rollbackEnabled: false };
}

const confirmation = z.object({ confirm: z.boolean() });

function text(value: string): CallToolResult {
  return { content: [{ type: 'text', text: value }] };
}

function deployed(state: ReleaseState, version: string, confirmed: boolean): CallToolResult {
  if (!confirmed) return text(`deploy of ${version} cancelled; ${state.version} stays live`);
  state.history.push(state.version);
  state.version = version;
  return { ...text(`deployed ${version}`), structuredContent: { version, previous: state.history.at(-1) } };
}

/**
 * One release server instance for `era`, sharing `state` with the other instances of the process.
 * Pass it as the factory of `serveStdio` / `createMcpHandler` (bound to one state).
 */
export function createReleaseServer({ era }: { era: ReleaseEra }, state: ReleaseState = newReleaseState()): McpServer {
  const server = new McpServer(
    { name: RELEASE_SERVER_NAME, version: '1.0.0' },
    { capabilities: { tools: { listChanged: true } }, instructions: `Release server (${era} era).` },
  );

  server.registerTool(
    'current_version',
    {
      description: 'The version currently deployed.',
      outputSchema: z.object({ version: z.string() }),
    },
    async () => ({ ...text(state.version), structuredContent: { version: state.version } }),
  );

  server.registerTool(
    'deploy',
    {
      description: 'Deploys a version after the user confirms it.',
      inputSchema: z.object({ version: z.string().min(1) }),
    },
    async ({ version }, ctx) => {
      // Written once for both eras: the handler ends a round with the question and is called again
      // with the answer in `inputResponses`. On 2026-07-28 that is an `input_required` result the
      // client retries; on a 2025 connection the SDK asks the same question as an
      // `elicitation/create` request in the middle of the call and re-runs the handler with it.
      const response = inputResponse(ctx.mcpReq.inputResponses, 'confirm');
      if (response.kind === 'missing') {
        return inputRequired({
          inputRequests: {
            confirm: inputRequired.elicit({
              message: `Deploy ${version} (now ${state.version})?`,
              requestedSchema: confirmation,
            }),
          },
        });
      }
      const accepted = acceptedContent(ctx.mcpReq.inputResponses, 'confirm', confirmation);
      return deployed(state, version, accepted?.confirm === true);
    },
  );

  const rollback: RegisteredTool = server.registerTool(
    'rollback',
    { description: 'Returns to the previously deployed version.' },
    async () => {
      const previous = state.history.pop();
      if (previous === undefined) {
        return { ...text(`nothing to roll back to: ${state.version} is the first deploy`), isError: true };
      }
      state.version = previous;
      return text(`rolled back to ${previous}`);
    },
  );
  if (!state.rollbackEnabled) rollback.disable();

  server.registerTool(
    'enable_rollback',
    { description: 'Offers the rollback tool from now on (the tool list changes).' },
    async () => {
      if (state.rollbackEnabled) return text('rollback already enabled');
      state.rollbackEnabled = true;
      rollback.enable(); // sends notifications/tools/list_changed
      return text('rollback enabled');
    },
  );

  return server;
}
