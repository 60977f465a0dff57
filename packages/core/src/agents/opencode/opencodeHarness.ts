import { providerUpstream } from '../../cassettes/clients/defaultUpstreams';
import { NATIVE_HARNESS_DEFAULTS } from '../native/nativeHarnessDefaults';
import type { NativeHarness } from '../native/nativeHarnesses';
import type { NativeHarnessDefaults } from '../native/nativeSelection';
import { parseOpencodeModel } from './opencodeConfig';
import type { OpencodeDriver } from './OpencodeDriver';

/** OpenCode's CLI (`opencode-ai` on npm) and its defaults (its row of `NATIVE_HARNESS_DEFAULTS`). */
export const OPENCODE_DEFAULTS: NativeHarnessDefaults = NATIVE_HARNESS_DEFAULTS.opencode;

/** The `opencode` native harness (contract §18): `opencode serve` and its HTTP API. */
export const OPENCODE_HARNESS: NativeHarness = {
  defaults: OPENCODE_DEFAULTS,
  check(selection) {
    for (const model of selection.models) parseOpencodeModel(model);
  },
  upstream: (selection, model) => selection.baseUrl ?? providerUpstream('opencode', model),
  // The driver module loads with the first execution, not when sf-m3 is imported.
  newDriver: (selection, model) => {
    const { OpencodeDriver: Driver } = require('./OpencodeDriver') as { OpencodeDriver: typeof OpencodeDriver };
    return new Driver(selection, model, OPENCODE_DEFAULTS);
  },
};
