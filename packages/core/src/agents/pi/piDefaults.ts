import { NATIVE_HARNESS_DEFAULTS } from '../native/nativeHarnessDefaults';
import type { NativeHarnessDefaults } from '../native/nativeSelection';

/** The pi kind's CLI (its row of `NATIVE_HARNESS_DEFAULTS`); the key variable follows the model's provider. */
export const PI_DEFAULTS: NativeHarnessDefaults = NATIVE_HARNESS_DEFAULTS.pi;
