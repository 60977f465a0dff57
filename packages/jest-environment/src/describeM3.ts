import { parseCassetteSuiteOptions, PINNABLE_REVISIONS, ModelValidationError } from '@sf-m3/core/internal';
import type { DescribeM3, DescribeM3Function, M3SuiteOptions } from './runtimeBridge';
import { normalizeSuiteName } from './suiteName';

/** The Jest `describe` parts `describe.m3` builds on. */
export interface JestDescribeLike {
  (name: string, fn: () => void): void;
  skip(name: string, fn: () => void): void;
  only(name: string, fn: () => void): void;
}

/** A suite declared by `describe.m3`, waiting for Jest to create its describe block. */
export interface DeclaredSuite {
  readonly name: string;
  readonly options: M3SuiteOptions;
  /**
   * Set on the inner block of one revision of a `protocols` suite (titled `[protocol=REV]`): the
   * tests in it connect with that revision, and the block's title is not part of their case id.
   */
  readonly protocol?: string;
}

/** The title of the block a `protocols` suite runs one revision in. */
export function protocolBlockTitle(revision: string): string {
  return `[protocol=${revision}]`;
}

/**
 * Builds `describe.m3` (with `.skip` / `.only`) on top of Jest's `describe`. Each call validates
 * the suite, hands it to `declare` right before Jest's `start_describe_definition` event (where the
 * environment binds it to the new describe block), and titles the block with the trimmed name.
 */
export function createDescribeM3(
  describe: JestDescribeLike,
  declare: (suite: DeclaredSuite | null) => void,
  protocolsOverride: readonly string[] | null = null,
): DescribeM3 {
  const variant =
    (define: (name: string, fn: () => void) => void): DescribeM3Function =>
    (suiteName: string, optionsOrFn: M3SuiteOptions | (() => void), maybeFn?: () => void): void => {
      const name = normalizeSuiteName(suiteName);
      const [options, fn] = typeof optionsOrFn === 'function' ? [{}, optionsOrFn] : [optionsOrFn, maybeFn];
      if (typeof fn !== 'function') {
        throw new ModelValidationError(`describe.m3('${name}', ...) needs a function that declares the suite's tests`);
      }
      const checked = validateSuiteOptions(name, options);
      const protocols =
        protocolsOverride === null ? checked.protocols : validateProtocols(protocolsOverride, 'm3 test --protocol');
      declare({ name, options: checked });
      try {
        define(
          name,
          protocols === undefined ? fn : () => eachProtocol(describe, declare, name, checked, protocols, fn),
        );
      } finally {
        declare(null);
      }
    };
  // `fuzz` is added by the environment (describeM3Fuzz.ts), which owns the fuzzer's runtime.
  const m3 = variant((name, fn) => describe(name, fn)) as DescribeM3;
  Object.defineProperties(m3, {
    skip: { value: variant((name, fn) => describe.skip(name, fn)), enumerable: true },
    only: { value: variant((name, fn) => describe.only(name, fn)), enumerable: true },
  });
  return m3;
}

/** Declares one inner block per revision, each running the suite's body (contract §23). */
function eachProtocol(
  describe: JestDescribeLike,
  declare: (suite: DeclaredSuite | null) => void,
  name: string,
  options: M3SuiteOptions,
  protocols: readonly string[],
  fn: () => void,
): void {
  for (const protocol of protocols) {
    declare({ name, options, protocol });
    try {
      describe(protocolBlockTitle(protocol), fn);
    } finally {
      declare(null);
    }
  }
}

/**
 * Checks a `protocols` list (the suite option, or the CLI's `--protocol`): revisions the kit can pin,
 * at least one, no repeats. `where` starts the error message.
 */
export function validateProtocols(value: unknown, where: string): readonly string[] {
  const known: readonly string[] = PINNABLE_REVISIONS;
  if (!Array.isArray(value) || value.length === 0) {
    throw new ModelValidationError(
      `${where}: protocols must be a non-empty array of revisions like ['2025-11-25', '2026-07-28']`,
    );
  }
  for (const revision of value) {
    if (typeof revision !== 'string' || !known.includes(revision)) {
      throw new ModelValidationError(
        `${where}: protocols lists ${JSON.stringify(revision)}; use revisions from ${known.map((r) => `'${r}'`).join(', ')}`,
      );
    }
  }
  if (new Set(value).size !== value.length) {
    throw new ModelValidationError(`${where}: protocols lists a revision twice`);
  }
  return value as string[];
}

/** Checks the options form of `describe.m3`; unknown keys are refused so typos surface. */
export function validateSuiteOptions(name: string, options: unknown): M3SuiteOptions {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new ModelValidationError(`describe.m3('${name}', options, fn): options must be an object like { trials: 3 }`);
  }
  const known = new Set(['agents', 'servers', 'trials', 'protocols', 'cassettes']);
  const unknown = Object.keys(options).filter((key) => !known.has(key));
  if (unknown.length > 0) {
    throw new ModelValidationError(
      `describe.m3('${name}', options, fn): unknown option ${unknown.join(', ')}; use agents, servers, trials, protocols or cassettes`,
      { unknown },
    );
  }
  const { agents, servers, trials, protocols, cassettes } = options as Record<string, unknown>;
  // contract §24: `{ servers?: boolean, mode?: CassetteMode }`, unknown keys refused.
  if (cassettes !== undefined) parseCassetteSuiteOptions(name, cassettes);
  if (protocols !== undefined) validateProtocols(protocols, `describe.m3('${name}', options, fn)`);
  for (const [key, value] of [
    ['agents', agents],
    ['servers', servers],
  ] as const) {
    if (value !== undefined && !Array.isArray(value)) {
      throw new ModelValidationError(`describe.m3('${name}', options, fn): ${key} must be an array`);
    }
  }
  if (trials !== undefined && (typeof trials !== 'number' || !Number.isInteger(trials) || trials < 1)) {
    throw new ModelValidationError(`describe.m3('${name}', options, fn): trials must be a positive integer`);
  }
  return options as M3SuiteOptions;
}
