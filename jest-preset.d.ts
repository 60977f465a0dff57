// Types of `sf-m3/jest-preset` (see jest-preset.js), for a jest.config.ts that spreads the preset.
import type { Config } from 'jest';

/** The sf-m3 preset: test environment, global setup/teardown, setup file and ts-jest transform. */
declare const preset: Config;
export = preset;
