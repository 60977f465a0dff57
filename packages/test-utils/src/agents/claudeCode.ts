// Helpers for tests of the claude_code harness against its protocol fixture (fake-claude.js).
import { join } from 'node:path';
import type { MCPTestKit } from '../../../core/src/kit/MCPTestKit';

/** The stream-json fixture standing in for `claude` (executable, with a shebang). */
export const FAKE_CLAUDE = join(__dirname, '../../../core/src/agents/claude_code/__fixtures__/fake-claude.js');

/** A loopback model endpoint: the fixture calls no model, and a loopback baseUrl needs no real API key. */
export const LOOPBACK_BASE_URL = 'http://127.0.0.1:9';

/** One claude_code agent run by the fixture; `extra` adds or replaces selection fields. */
export function fakeClaudeAgent(kit: MCPTestKit, extra: Record<string, unknown> = {}) {
  return kit.agents([
    { harness: 'claude_code', executable: FAKE_CLAUDE, baseUrl: LOOPBACK_BASE_URL, models: ['sonnet'], ...extra },
  ])[0]!;
}
