import { CLAUDE_CODE_HARNESS } from '../claude_code/claudeCodeHarness';
import { CODEX_HARNESS } from '../codex/codexHarness';
import type { HarnessDriver } from '../HarnessDriver';
import { OPENCODE_HARNESS } from '../opencode/opencodeHarness';
import { piHarness } from '../pi/piHarness';
import type { NativeHarnessDefaults, NativeHarnessKind, ResolvedNativeSelection } from './nativeSelection';

/** One native harness kind: its CLI's defaults and a driver per execution. */
export interface NativeHarness {
  readonly defaults: NativeHarnessDefaults;
  /**
   * Checks what the generic validation cannot (e.g. a model name the CLI cannot take); throws
   * `ModelValidationError` / `UnsupportedFeature` naming the fix. No I/O.
   */
  check?(selection: ResolvedNativeSelection): void;
  /**
   * Where `model`'s traffic goes live (contract §24, the cassette proxy's upstream): the selection's
   * `baseUrl`, else the CLI's default endpoint for the model. Throws `ModelValidationError` naming
   * the fix when there is none. No I/O.
   */
  upstream(selection: ResolvedNativeSelection, model: string): string;
  /** A fresh driver for one execution of `model`. */
  newDriver(selection: ResolvedNativeSelection, model: string): HarnessDriver;
}

/** The native kinds this build drives (contract §18), by kind. */
export const NATIVE_HARNESSES: Partial<Record<NativeHarnessKind, NativeHarness>> = {
  claude_code: CLAUDE_CODE_HARNESS,
  codex: CODEX_HARNESS,
  opencode: OPENCODE_HARNESS,
  pi: piHarness,
};
