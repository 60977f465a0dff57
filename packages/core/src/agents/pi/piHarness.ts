import { providerUpstream } from '../../cassettes/clients/defaultUpstreams';
import type { NativeHarness } from '../native/nativeHarnesses';
import type { PiDriver } from './PiDriver';
import { PI_DEFAULTS } from './piDefaults';
import { parsePiModel } from './piModel';

/** The `pi` native harness (contract §18): Pi's `--mode rpc` with the kit's MCP extension. */
export const piHarness: NativeHarness = {
  defaults: PI_DEFAULTS,
  check(selection) {
    for (const model of selection.models) parsePiModel(model);
  },
  upstream: (selection, model) => selection.baseUrl ?? providerUpstream('pi', model),
  // The driver module loads with the first execution, not when sf-m3 is imported.
  newDriver: (selection, model) => {
    const { PiDriver: Driver } = require('./PiDriver') as { PiDriver: typeof PiDriver };
    return new Driver(selection, model);
  },
};
