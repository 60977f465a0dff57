import { OPENAI_UPSTREAM } from '../../cassettes/clients/defaultUpstreams';
import type { NativeHarness } from '../native/nativeHarnesses';
import type { CodexDriver } from './CodexDriver';
import { CODEX_DEFAULTS } from './codexLaunch';

/** The `codex` native harness (contract §18): `codex app-server` over stdio. */
export const CODEX_HARNESS: NativeHarness = {
  defaults: CODEX_DEFAULTS,
  upstream: (selection) => selection.baseUrl ?? OPENAI_UPSTREAM,
  // The driver module loads with the first execution, not when sf-m3 is imported.
  newDriver: (selection, model) => {
    const { CodexDriver: Driver } = require('./CodexDriver') as { CodexDriver: typeof CodexDriver };
    return new Driver(selection, model);
  },
};
