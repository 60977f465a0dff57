import type { NativeHarness } from '../native/nativeHarnesses';
import { CodexDriver } from './CodexDriver';
import { CODEX_DEFAULTS } from './codexLaunch';

/** The `codex` native harness (SPEC §18): `codex app-server` over stdio. */
export const CODEX_HARNESS: NativeHarness = {
  defaults: CODEX_DEFAULTS,
  newDriver: (selection, model) => new CodexDriver(selection, model),
};
