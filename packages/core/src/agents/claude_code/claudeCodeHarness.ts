import { ANTHROPIC_UPSTREAM } from '../../cassettes/clients/defaultUpstreams';
import { ModelValidationError } from '../../errors';
import type { NativeHarness } from '../native/nativeHarnesses';
import type { ResolvedNativeSelection } from '../native/nativeSelection';
import { CLAUDE_CODE_DEFAULTS } from './claudeCodeDefaults';
import type { ClaudeCodeDriver } from './ClaudeCodeDriver';

/** Claude Code calls `<baseUrl>/v1/messages`: a base URL ending in `/v1` would double it. */
function checkClaudeSelection(selection: ResolvedNativeSelection): void {
  if (selection.baseUrl !== undefined && /\/v1$/.test(new URL(selection.baseUrl).pathname)) {
    throw new ModelValidationError(
      `claude_code agent selection: baseUrl ${selection.baseUrl} ends in /v1; Claude Code takes the origin (ANTHROPIC_BASE_URL): drop the /v1`,
      { option: 'baseUrl', harness: 'claude_code' },
    );
  }
}

/** The `claude_code` native harness (contract §18). */
export const CLAUDE_CODE_HARNESS: NativeHarness = {
  defaults: CLAUDE_CODE_DEFAULTS,
  check: checkClaudeSelection,
  upstream: (selection) => selection.baseUrl ?? ANTHROPIC_UPSTREAM,
  // The driver module loads with the first execution, not when sf-m3 is imported.
  newDriver: (selection, model) => {
    const { ClaudeCodeDriver: Driver } = require('./ClaudeCodeDriver') as { ClaudeCodeDriver: typeof ClaudeCodeDriver };
    return new Driver(selection, model);
  },
};
