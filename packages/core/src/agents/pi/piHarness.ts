import type { NativeHarness } from '../native/nativeHarnesses';
import { PiDriver } from './PiDriver';
import { PI_DEFAULTS } from './piDefaults';
import { parsePiModel } from './piModel';

/** The `pi` native harness (SPEC §18): Pi's `--mode rpc` with the kit's MCP extension. */
export const piHarness: NativeHarness = {
  defaults: PI_DEFAULTS,
  check(selection) {
    for (const model of selection.models) parsePiModel(model);
  },
  newDriver: (selection, model) => new PiDriver(selection, model),
};
