/**
 * The preset's `setupFilesAfterEnv` entry. It runs inside each test file's sandbox, so the kits,
 * stores and matchers it builds come from the same module instances the test imports from `sf-m3`
 * (a kit built in Jest's outer realm would hand back classes `instanceof` cannot recognise).
 */
import { MCPTestKit } from '@sf-m3/core';
import { m3Matchers } from '@sf-m3/matchers';
import { SQLiteExecutionStore } from '@sf-m3/store-sqlite';
import { runtimeOf } from './runtimeBridge';

const runtime = runtimeOf(globalThis);
runtime.createKit = (options) => new MCPTestKit({ ...options });
runtime.createStore = (path) => new SQLiteExecutionStore(path);

const jestExpect = runtime.expect ?? (globalThis as { expect?: { extend(matchers: object): void } }).expect;
if (jestExpect === undefined) {
  throw new Error(
    "sf-m3 matchers need Jest's expect: run this setup file under @sf-m3/jest-environment (preset 'sf-m3')",
  );
}
jestExpect.extend(m3Matchers);
