import { NATIVE_HARNESS_DEFAULTS } from '../native/nativeHarnessDefaults';
import type { NativeHarnessDefaults } from '../native/nativeSelection';

/** Claude Code's CLI, its npm package and its key variable (its row of `NATIVE_HARNESS_DEFAULTS`). */
export const CLAUDE_CODE_DEFAULTS: NativeHarnessDefaults = NATIVE_HARNESS_DEFAULTS.claude_code;
