import type { NativeHarnessDefaults, NativeHarnessKind } from './nativeSelection';

/**
 * The one table of the native harnesses (contract §18): each kind's CLI as looked up on PATH, the
 * npm package that installs it, and its default key variable. The drivers launch from it and
 * `m3 doctor` checks the same executables; a new native harness adds its row here.
 */
export const NATIVE_HARNESS_DEFAULTS: Readonly<Record<NativeHarnessKind, NativeHarnessDefaults>> = {
  claude_code: {
    kind: 'claude_code',
    executable: 'claude',
    npmPackage: '@anthropic-ai/claude-code',
    apiKeyEnv: 'ANTHROPIC_API_KEY',
  },
  codex: { kind: 'codex', executable: 'codex', npmPackage: '@openai/codex', apiKeyEnv: 'OPENAI_API_KEY' },
  opencode: { kind: 'opencode', executable: 'opencode', npmPackage: 'opencode-ai', apiKeyEnv: 'OPENCODE_API_KEY' },
  // Pi's key variable follows the model's provider.
  pi: { kind: 'pi', executable: 'pi', npmPackage: '@mariozechner/pi-coding-agent', apiKeyEnv: null },
};
