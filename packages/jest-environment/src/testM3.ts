import { ModelValidationError } from '@sf-m3/core/internal';
import type { AgentSelection, MCPTestKit, ServerDefinition } from '@sf-m3/core';
import { applyHarnessOverrides } from './harnessOverrides';
import type { M3SuiteOptions } from './runtimeBridge';

/** A server a `test.m3` expansion runs against: from `describe.m3` options or the CLI's `--server`. */
export interface ServerChoice {
  readonly name: string;
  /** Builds the server definition inside the test (CLI selections become `StdioServer`/`HTTPServer`). */
  readonly resolve: () => unknown;
}

/** One harness and model a `test.m3` expansion runs with. */
export interface AgentChoice {
  readonly harness: string;
  readonly model: string;
  /** The selection handed to `kit.agents([...])`: the entry narrowed to this model. */
  readonly selection: Record<string, unknown>;
}

/** One Jest test `test.m3` expands into. */
export interface TestM3Expansion {
  readonly title: string;
  readonly server: ServerChoice | null;
  readonly agent: AgentChoice | null;
  readonly trial: number;
  readonly trialCount: number;
}

/** The CLI's replacements for `describe.m3` options (`null` keeps the suite's own). */
export interface SelectionOverrides {
  readonly servers: unknown[] | null;
  readonly harness: unknown[] | null;
  readonly trials: number | null;
}

/**
 * contract §11: one test per selected server × agent × trial, titled
 * `name [server=…] [agent=…] [trial 2/3]` (each part only when that dimension is in play).
 * CLI selections replace the suite's; a `--harness` kind keeps the other fields of the suite's
 * entry of that kind (see `applyHarnessOverrides`). `buildServer` turns a CLI selection into a
 * definition; `suiteName` only words errors.
 */
export function expandTestM3(
  name: string,
  options: M3SuiteOptions,
  overrides: SelectionOverrides,
  buildServer: (selection: Record<string, unknown>) => unknown,
  suiteName: string | null = null,
): TestM3Expansion[] {
  const servers: Array<ServerChoice | null> =
    overrides.servers !== null
      ? overrides.servers.map((selection) => cliServer(selection, buildServer))
      : (options.servers ?? []).map(suiteServer);
  const agents: Array<AgentChoice | null> = agentChoices(
    overrides.harness !== null
      ? applyHarnessOverrides(overrides.harness, options.agents ?? [], suiteName)
      : (options.agents ?? []),
  );
  const trialCount = overrides.trials ?? options.trials ?? 1;
  const expansions: TestM3Expansion[] = [];
  for (const server of servers.length > 0 ? servers : [null]) {
    for (const agent of agents.length > 0 ? agents : [null]) {
      for (let trial = 1; trial <= trialCount; trial += 1) {
        const parts = [name];
        if (server !== null) parts.push(`[server=${server.name}]`);
        if (agent !== null) parts.push(`[agent=${agent.harness}:${agent.model}]`);
        if (trialCount > 1) parts.push(`[trial ${trial}/${trialCount}]`);
        expansions.push({ title: parts.join(' '), server, agent, trial, trialCount });
      }
    }
  }
  return expansions;
}

function suiteServer(server: unknown): ServerChoice {
  const name = (server as { name?: unknown } | null)?.name;
  if (typeof name !== 'string' || name.length === 0) {
    throw new ModelValidationError(
      'describe.m3 servers must be server definitions (StdioServer, HTTPServer, InProcessServer)',
    );
  }
  return { name, resolve: () => server };
}

function cliServer(selection: unknown, buildServer: (selection: Record<string, unknown>) => unknown): ServerChoice {
  const record = selection as Record<string, unknown> | null;
  if (typeof record !== 'object' || record === null || typeof record.name !== 'string') {
    throw new ModelValidationError(
      'M3_SERVERS must be a JSON list of server selections with a name (set by m3 test --server)',
    );
  }
  let built: unknown;
  return { name: record.name, resolve: () => (built ??= buildServer(record)) };
}

function agentChoices(entries: readonly unknown[]): AgentChoice[] {
  const choices: AgentChoice[] = [];
  for (const entry of entries) {
    const record = entry as Record<string, unknown> | null;
    if (typeof record !== 'object' || record === null || typeof record.harness !== 'string') {
      throw new ModelValidationError(
        "agents must be selections like { harness: 'openai', model: 'gpt-4o-mini' } (as kit.agents takes them)",
      );
    }
    // `models: [...]` expands to one choice per model; `model: 'm'` (kit.agents' one-model form) is one.
    const listed = Array.isArray(record.models) && record.models.length > 0;
    const models: unknown[] = listed ? (record.models as unknown[]) : [record.model ?? null];
    for (const model of models) {
      choices.push({
        harness: record.harness,
        model: model === null ? 'default' : String(model),
        selection: listed ? { ...record, models: [model] } : { ...record },
      });
    }
  }
  return choices;
}

/** What a `test.m3` body receives. */
export interface TestM3Context {
  /** The test's kit (`m3Kit`), labelled with this expansion's server, harness, model and trial. */
  readonly kit: MCPTestKit;
  /**
   * The agent of this expansion's harness, model and trial (`agent.trial` is this trial's number);
   * `undefined` without agents.
   */
  readonly agent: AgentSelection | undefined;
  /** The server definition of this expansion; `undefined` without servers. */
  readonly server: ServerDefinition | undefined;
  /** 1-based trial number. */
  readonly trial: number;
  /** Shared by every expansion of the test. */
  readonly caseId: string;
}

/** Signature of `test.m3` and its `.skip` / `.only` variants. */
export type TestM3Function = (name: string, fn: (context: TestM3Context) => unknown, timeout?: number) => void;

/** `test.m3` with Jest's modifiers. */
export interface TestM3 extends TestM3Function {
  readonly skip: TestM3Function;
  readonly only: TestM3Function;
}

/** The Jest `test` parts `test.m3` builds on. */
export interface JestTestLike {
  (name: string, fn: () => unknown, timeout?: number): void;
  skip(name: string, fn: () => unknown, timeout?: number): void;
  only(name: string, fn: () => unknown, timeout?: number): void;
}

/** The case a `test.m3` expansion belongs to, handed to the environment as Jest adds the test. */
export interface DeclaredCase {
  /** The test's title without the server/agent/trial suffix: the case id is built from it. */
  readonly baseTitle: string;
  /** Labels the expansion's kit gives its executions (and so their evaluations). */
  readonly labels: Readonly<Record<'server' | 'harness' | 'model' | 'trial', string | null>>;
}

/** What `test.m3` needs from the environment. */
export interface TestM3Dependencies {
  readonly test: JestTestLike;
  readonly options: () => M3SuiteOptions;
  /** The closest `describe.m3` suite's name (for error messages); `null` outside one. */
  readonly suiteName?: () => string | null;
  readonly overrides: SelectionOverrides;
  readonly buildServer: (selection: Record<string, unknown>) => unknown;
  /** Called with the case right before Jest's `add_test` event, and with `null` after. */
  readonly declareCase: (declared: DeclaredCase | null) => void;
  readonly currentKit: () => { readonly caseId: string | null } | undefined;
}

/** Builds `test.m3` (with `.skip` / `.only`) on top of Jest's `test`. */
export function createTestM3(deps: TestM3Dependencies): TestM3 {
  const variant =
    (define: (title: string, fn: () => unknown, timeout?: number) => void): TestM3Function =>
    (name, fn, timeout) => {
      if (typeof name !== 'string' || name.trim().length === 0) {
        throw new ModelValidationError("test.m3 needs a test name: test.m3('quotes', async ({ kit }) => { ... })");
      }
      if (typeof fn !== 'function') {
        throw new ModelValidationError(
          `test.m3('${name}', fn): fn must be a function receiving { kit, agent, server, trial, caseId }`,
        );
      }
      const suiteName = deps.suiteName?.() ?? null;
      for (const expansion of expandTestM3(name, deps.options(), deps.overrides, deps.buildServer, suiteName)) {
        deps.declareCase({
          baseTitle: name,
          labels: {
            server: expansion.server?.name ?? null,
            harness: expansion.agent?.harness ?? null,
            model: expansion.agent?.model ?? null,
            trial: String(expansion.trial),
          },
        });
        try {
          define(expansion.title, () => run(expansion, fn), timeout);
        } finally {
          deps.declareCase(null);
        }
      }
    };

  const run = (expansion: TestM3Expansion, fn: (context: TestM3Context) => unknown): unknown => {
    const kit = deps.currentKit();
    if (kit === undefined) throw new ModelValidationError('test.m3 bodies run only inside the sf-m3 environment');
    const agents = (kit as { agents?: (selections: unknown[], options: { trials: number }) => unknown[] }).agents;
    // `kit.agents` numbers trials from 1 (no I/O): the last of `trial` selections is this trial's.
    const agent =
      expansion.agent === null || agents === undefined
        ? undefined
        : agents.call(kit, [expansion.agent.selection], { trials: expansion.trial }).at(-1);
    return fn({
      kit: kit as unknown as MCPTestKit,
      agent: agent as AgentSelection | undefined,
      server: expansion.server?.resolve() as ServerDefinition | undefined,
      trial: expansion.trial,
      caseId: kit.caseId ?? '',
    });
  };

  const m3 = variant((title, fn, timeout) => deps.test(title, fn, timeout)) as TestM3;
  Object.defineProperties(m3, {
    skip: { value: variant((title, fn, timeout) => deps.test.skip(title, fn, timeout)), enumerable: true },
    only: { value: variant((title, fn, timeout) => deps.test.only(title, fn, timeout)), enumerable: true },
  });
  return m3;
}
