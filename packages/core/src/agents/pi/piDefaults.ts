import type { NativeHarnessDefaults } from '../native/nativeSelection';

/** The pi kind's CLI: `pi` on PATH from `@mariozechner/pi-coding-agent`; the key variable follows the model's provider. */
export const PI_DEFAULTS: NativeHarnessDefaults = {
  kind: 'pi',
  executable: 'pi',
  npmPackage: '@mariozechner/pi-coding-agent',
  apiKeyEnv: null,
};
