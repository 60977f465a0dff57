// Types of the protocol fixture's config reader (fakeCodexConfig.js), for the tests that use it.

/** A TOML value as the fixture reads it. */
export type FakeCodexConfigValue = string | number | boolean | FakeCodexConfigValue[] | FakeCodexConfig;

/** `CODEX_HOME/config.toml` as nested tables. */
export interface FakeCodexConfig {
  [key: string]: FakeCodexConfigValue;
}

/** Reads `CODEX_HOME/config.toml` (the small TOML subset the codex harness writes). */
export function readCodexConfig(path: string): FakeCodexConfig;
