/**
 * The preset's `setupFilesAfterEnv` entry. It runs inside each test file's sandbox, so the kits,
 * stores and matchers it builds come from the same module instances the test imports from `sf-m3`
 * (a kit built in Jest's outer realm would hand back classes `instanceof` cannot recognise).
 * Kits, the SQLite store and the matcher code load on first use, so files that never touch them
 * stay as fast as plain Jest.
 */
import { lazyMatchers } from './lazyMatchers';
import type { MatcherFn } from './lazyMatchers';
import { runtimeOf } from './runtimeBridge';

type Core = typeof import('@sf-m3/core');
type CoreInternal = typeof import('@sf-m3/core/internal');
type MCPTestKitOptions = import('@sf-m3/core').MCPTestKitOptions;
type StoreSqlite = typeof import('@sf-m3/store-sqlite');
type Matchers = typeof import('@sf-m3/matchers');

const runtime = runtimeOf(globalThis);
runtime.createKit = ({ canaries, protocol, cassettes, ...options }) => {
  const { MCPTestKit, Redactor } = require('@sf-m3/core') as Core;
  return new MCPTestKit({
    ...options,
    // contract §24: a scope of this file's book, which `openCassetteBook` below made from this sandbox.
    ...(cassettes !== undefined && { cassettes: cassettes as NonNullable<MCPTestKitOptions['cassettes']> }),
    suiteName: options.suiteName ?? undefined,
    redactor: new Redactor(canaries),
    // A revision `describe.m3` checked; the kit checks it again.
    ...(protocol !== undefined && { protocol: protocol as NonNullable<MCPTestKitOptions['protocol']> }),
  });
};
runtime.openCassetteBook = (request) => {
  // Built here, not in the environment's realm, so a channel's `CassetteMissError` is the class the test imports.
  const { openCassetteBook } = require('@sf-m3/core') as Core;
  return openCassetteBook(request);
};
runtime.createError = (code, message) => {
  const { M3Error } = require('@sf-m3/core') as Core;
  return new M3Error(code, message);
};
runtime.createServer = (selection) => {
  const { HTTPServer, ModelValidationError, StdioServer } = require('@sf-m3/core') as Core;
  const { transport, ...fields } = selection;
  if (transport === 'http') return new HTTPServer(fields as unknown as ConstructorParameters<typeof HTTPServer>[0]);
  if (transport === 'stdio') return new StdioServer(fields as unknown as ConstructorParameters<typeof StdioServer>[0]);
  throw new ModelValidationError(
    `M3_SERVERS holds a server with transport ${String(transport)}; give each --server transport http or stdio`,
  );
};
runtime.loadFuzz = () => {
  const { fuzzTools } = require('@sf-m3/core') as Core;
  const { fuzzFailureMessage, fuzzSeed, listToolsSync } = require('@sf-m3/core/internal') as CoreInternal;
  return { fuzzFailureMessage, fuzzSeed, fuzzTools, listToolsSync };
};
runtime.createStore = (path) => {
  const { isPostgresUrl, openPostgresStore } = require('@sf-m3/core/internal') as CoreInternal;
  if (isPostgresUrl(path)) return openPostgresStore(path, {}, [process.cwd()]);
  const { SQLiteExecutionStore } = require('@sf-m3/store-sqlite') as StoreSqlite;
  return new SQLiteExecutionStore(path);
};

const jestExpect = runtime.expect ?? (globalThis as { expect?: { extend(matchers: object): void } }).expect;
if (jestExpect === undefined) {
  throw new Error(
    "sf-m3 matchers need Jest's expect: run this setup file under @sf-m3/jest-environment (preset 'sf-m3')",
  );
}
jestExpect.extend(
  lazyMatchers(() => (require('@sf-m3/matchers') as Matchers).m3Matchers as unknown as Record<string, MatcherFn>),
);
