import type { NativeHarnessDefaults } from '../native/nativeSelection';

/** Claude Code's CLI, its npm package and its key variable. */
export const CLAUDE_CODE_DEFAULTS: NativeHarnessDefaults = {
  kind: 'claude_code',
  executable: 'claude',
  npmPackage: '@anthropic-ai/claude-code',
  apiKeyEnv: 'ANTHROPIC_API_KEY',
};
