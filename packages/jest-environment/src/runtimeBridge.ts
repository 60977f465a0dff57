import type { ExecutionStore } from '@sf-m3/core';
import type { CassetteSuiteOptions } from '@sf-m3/core/internal';
import type { BridgedCassetteBook, CassetteBookRequest } from './cassettes/bridgedCassettes';
import type { DescribeM3Fuzz, FuzzRuntime } from './describeM3Fuzz';
import type { TestM3 } from './testM3';

/**
 * The environment runs in Jest's outer realm while tests run in a `vm` sandbox with their own copy
 * of every module. Kits, stores and matchers must be built from the sandbox's modules (so the
 * classes a test imports from `sf-m3` are the ones the kit returns), and the environment must see
 * them. This object, stored on the sandbox global under a registry symbol (shared by both realms),
 * is where the two sides meet.
 */
export const M3_RUNTIME: unique symbol = Symbol.for('sf-m3.jest-runtime') as never;

/** Options the environment passes when it asks the sandbox for a test's kit. */
export interface KitFactoryOptions {
  readonly store: ExecutionStore | undefined;
  readonly runId: string;
  readonly suiteName: string | null;
  readonly caseId: string;
  readonly attemptId: string;
  readonly recordChecks: true;
  /** Labels of a `test.m3` expansion (server, harness, model, trial); empty otherwise. */
  readonly labels: Readonly<Record<string, string | null>>;
  /** The run's canaries (`runCanaries`): the kit's redactor starts with them. */
  readonly canaries: readonly string[];
  /** The revision of a `describe.m3({ protocols })` block the test runs in (the kit's `protocol`). */
  readonly protocol?: string;
  /**
   * The test attempt's cassette scope (contract §24), made by the file's book in the sandbox; the
   * kit's `cassettes`. Absent when the test's mode is `off`.
   */
  readonly cassettes?: unknown;
}

/** The part of an `MCPTestKit` the environment drives (read structurally across realms). */
export interface BridgedKit {
  readonly caseId: string | null;
  readonly redactor: { redactText(text: string): string };
  executionIds(): string[];
  requiredFailures(): ReadonlyArray<{
    readonly evaluationId: string;
    readonly evaluator: string;
    readonly status: string;
    readonly rationale: string | null;
  }>;
  close(): Promise<void>;
}

/** Options of `describe.m3(name, options, fn)`; `agents` and `servers` are read by `test.m3`. */
export interface M3SuiteOptions {
  readonly agents?: readonly unknown[];
  readonly servers?: readonly unknown[];
  readonly trials?: number;
  /** Run every test of the suite once per listed MCP revision (contract §23), e.g. `['2025-11-25', '2026-07-28']`. */
  readonly protocols?: readonly string[];
  /** Cassettes of the suite's model traffic (contract §24): `servers` records the MCP side too; `mode` the suite's own. */
  readonly cassettes?: CassetteSuiteOptions;
}

/** Signature of `describe.m3` and its `.skip` / `.only` variants. */
export interface DescribeM3Function {
  (suiteName: string, fn: () => void): void;
  (suiteName: string, options: M3SuiteOptions, fn: () => void): void;
}

/** `describe.m3` with Jest's modifiers, and `describe.m3.fuzz` (contract §25). */
export interface DescribeM3 extends DescribeM3Function {
  readonly skip: DescribeM3Function;
  readonly only: DescribeM3Function;
  /** Fuzzes a server's tools from their input schemas: one suite, one test per tool (contract §25). */
  readonly fuzz: DescribeM3Fuzz;
}

/** What lives on the sandbox global under `M3_RUNTIME`. */
export interface M3Runtime {
  /** Set by the environment on Jest's `setup` event. */
  describeM3?: DescribeM3;
  /** Set by the environment on Jest's `setup` event. */
  testM3?: TestM3;
  /** Jest's `expect` of this file (present with or without `injectGlobals`). */
  expect?: { extend(matchers: object): void };
  /** The kit of the test running now, created on first use; `undefined` outside a test. */
  currentKit?: () => BridgedKit | undefined;
  /** Set by the sandbox setup file: builds a kit from the sandbox's `@sf-m3/core`. */
  createKit?: (options: KitFactoryOptions) => BridgedKit;
  /** Set by the sandbox setup file: opens the SQLite store from the sandbox's `@sf-m3/store-sqlite`. */
  createStore?: (path: string) => ExecutionStore;
  /** Set by the sandbox setup file: an `M3Error` of the sandbox's `@sf-m3/core`. */
  createError?: (code: string, message: string) => Error;
  /** Set by the sandbox setup file: the sandbox's fuzzer, loaded on first use (contract §25). */
  loadFuzz?: () => FuzzRuntime;
  /** Set by the sandbox setup file: opens a test file's cassette book from the sandbox's `@sf-m3/core` (contract §24). */
  openCassetteBook?: (request: CassetteBookRequest) => BridgedCassetteBook;
  /** Set by the sandbox setup file: a `StdioServer`/`HTTPServer` from a CLI `--server` selection. */
  createServer?: (selection: Record<string, unknown>) => unknown;
}

/** The runtime object of a sandbox global, created on first access. */
export function runtimeOf(global: object): M3Runtime {
  const holder = global as { [M3_RUNTIME]?: M3Runtime };
  holder[M3_RUNTIME] ??= {};
  return holder[M3_RUNTIME];
}
