// The `auth/*` client scenarios of the conformance framework: the auth lane's (issue 14 items 1, 2,
// 5, 6) replaces this placeholder with flows built on `HTTPServer({ auth })`.

/**
 * Runs one `auth/*` scenario against `serverUrl` through the kit's public API; resolves when the
 * scenario's client side is done, rejects when it cannot be done. `context` is the parsed
 * `MCP_CONFORMANCE_CONTEXT` (client ids, secrets, IdP endpoints) or undefined when none was given.
 */
export async function runAuthScenario(scenario: string, serverUrl: string, context: unknown): Promise<void> {
  void serverUrl;
  void context;
  throw new Error(`${scenario}: not implemented (OAuth client flows are the auth lane's)`);
}
