import { ModelValidationError, UnsupportedFeature } from '../errors';
import { ExecutionHandle } from '../execution/ExecutionHandle';
import type { ExecutionResult } from '../execution/ExecutionResult';
import type { AcpDriver } from './acp/AcpDriver';
import { resolveAcpSelection } from './acp/acpOptions';
import type { AgentHost } from './AgentHost';
import { agentChannelKey } from '../cassettes/clients/cassetteChannelKey';
import { ExecutionCassette } from './cassette/ExecutionCassette';
import {
  resolveOpenAISelection,
  resolveRunOptions,
  type AgentRunOptions,
  type AgentSelectionSpec,
} from './agentOptions';
import { AgentSession } from './AgentSession';
import type { HarnessDriver } from './HarnessDriver';
import { NATIVE_HARNESSES } from './native/nativeHarnesses';
import { NATIVE_HARNESS_KINDS, resolveNativeSelection, type NativeHarnessKind } from './native/nativeSelection';
import type { OpenAIDriver } from './OpenAIDriver';

/** Options of `kit.agents(selections, options)`. */
export interface AgentSelectionOptions {
  /** Independent executions per selection and model (default 1); never retries. */
  readonly trials?: number;
}

/** Options of `agent.session(...)`: like `run`'s. */
export type AgentSessionOptions = AgentRunOptions;

/** Harness kinds `kit.agents` accepts. */
export type AgentHarnessKind = 'openai' | 'acp' | NativeHarnessKind;

/** What a selection runs: its harness, model, name, endpoint host and a driver per execution. */
interface SelectionConfig {
  readonly harness: AgentHarnessKind;
  readonly model: string;
  readonly name: string | undefined;
  readonly endpointHost: string | null;
  readonly newDriver: () => HarnessDriver;
  /**
   * Where the model traffic goes live, for the cassette proxy (contract §24): the selection's
   * `baseUrl`, else the harness's default endpoint; throws `ModelValidationError` when there is
   * none. Null for a harness whose model traffic the kit does not carry (`acp`).
   */
  readonly upstream: (() => string) | null;
}

/**
 * One agent to test: a harness, a model and a trial number (contract §14). Made by `kit.agents`
 * without I/O; `run` and `session` each make one execution labelled with harness, model and trial.
 */
export class AgentSelection {
  readonly harness: AgentHarnessKind;
  readonly model: string;
  /** The selection's `name` (default: the harness kind). */
  readonly name: string;
  /** 1-based trial number. */
  readonly trial: number;
  /** Aggregation labels of its executions. */
  readonly labels: Readonly<{ harness: string; model: string; trial: string }>;

  constructor(
    private readonly host: AgentHost,
    private readonly config: SelectionConfig,
    trial: number,
  ) {
    this.harness = config.harness;
    this.model = config.model;
    this.name = config.name ?? config.harness;
    this.trial = trial;
    this.labels = Object.freeze({ harness: this.harness, model: this.model, trial: String(trial) });
  }

  /** @internal True when this selection was made by the kit whose agent host is `host`. */
  ownedBy(host: AgentHost): boolean {
    return this.host === host;
  }

  /** One prompt in a fresh session; resolves with the execution even when it failed or timed out. */
  async run(prompt: string, options: AgentRunOptions): Promise<ExecutionResult> {
    if (typeof prompt !== 'string' || prompt.trim() === '') {
      throw new ModelValidationError('agent.run needs a non-empty prompt string');
    }
    const session = await this.session(options);
    await session.send(prompt);
    return session.close();
  }

  /**
   * Starts `run(prompt, options)` in the background: `handle.events()` streams the trace,
   * `handle.result({ timeoutMs })` waits (never cancels), `handle.cancel()` stops it (`cancelled`).
   */
  submit(prompt: string, options: AgentRunOptions): ExecutionHandle {
    this.host.assertOpen('agent.submit');
    if (typeof prompt !== 'string' || prompt.trim() === '') {
      throw new ModelValidationError('agent.submit needs a non-empty prompt string');
    }
    const session = this.newSession(options);
    const done = session.open().then(async (s) => {
      await s.send(prompt);
      return s.close();
    });
    this.host.trackWrite(done);
    return new ExecutionHandle({
      executionId: session.executionId,
      feed: session,
      done,
      cancel: async () => {
        await session.cancel('the execution was cancelled through its handle');
      },
    });
  }

  /** A connected multi-turn session; `send` turns, then `close()` and read `session.result`. */
  async session(options: AgentSessionOptions): Promise<AgentSession> {
    this.host.assertOpen('agent.session');
    return this.newSession(options).open();
  }

  private newSession(options: AgentRunOptions): AgentSession {
    const resolved = resolveRunOptions(options, this.host.executionTimeoutMs);
    const { harness, model, name, endpointHost } = this.config;
    return new AgentSession(
      this.host,
      { harness, model, trial: this.trial, endpointHost, ...(name !== undefined && { name }) },
      resolved,
      this.config.newDriver(),
      this.newCassette(),
    );
  }

  /** The execution's cassette channel when the kit has cassettes (contract §24); throws when the endpoint is unknown. */
  private newCassette(): ExecutionCassette | null {
    const scope = this.host.cassettes ?? null;
    if (scope === null || scope.mode === 'off' || this.config.upstream === null) return null;
    const { harness, model, name } = this.config;
    const key = agentChannelKey({ harness, model, trial: this.trial, ...(name !== undefined && { name }) });
    return new ExecutionCassette(scope, key, this.config.upstream(), this.host.redactor, this.trial);
  }
}

/** The configurations of one `kit.agents` entry, one per model (validated, no I/O). */
function selectionConfigs(spec: AgentSelectionSpec): SelectionConfig[] {
  if (typeof spec !== 'object' || spec === null) {
    throw new ModelValidationError("kit.agents needs selections such as { harness: 'openai', model: 'gpt-4o-mini' }");
  }
  if (spec.harness === 'acp') {
    const acp = resolveAcpSelection(spec as Record<string, unknown>);
    return acp.models.map((model) => ({
      harness: 'acp',
      model,
      name: acp.name,
      endpointHost: null,
      upstream: null,
      newDriver: () => {
        // Drivers load with their first execution, not when sf-m3 is imported.
        const { AcpDriver: Driver } = require('./acp/AcpDriver') as { AcpDriver: typeof AcpDriver };
        return new Driver(acp);
      },
    }));
  }
  if ((NATIVE_HARNESS_KINDS as readonly string[]).includes(String(spec.harness))) {
    return nativeSelectionConfigs(spec as Record<string, unknown>, spec.harness as NativeHarnessKind);
  }
  if (spec.harness !== 'openai') {
    throw new UnsupportedFeature(
      `agent harness '${String(spec.harness)}' is not available in this release: use ${availableKinds()}`,
      { harness: String(spec.harness) },
    );
  }
  const { models, endpoint } = resolveOpenAISelection(spec);
  return models.map((model) => ({
    harness: 'openai',
    model,
    name: undefined,
    endpointHost: endpoint.host,
    upstream: () => endpoint.baseUrl,
    newDriver: () => {
      const { OpenAIDriver: Driver } = require('./OpenAIDriver') as { OpenAIDriver: typeof OpenAIDriver };
      return new Driver(endpoint, model);
    },
  }));
}

/** The kinds this build runs, for error messages. */
function availableKinds(): string {
  const kinds = ['openai', 'acp', ...NATIVE_HARNESS_KINDS.filter((k) => NATIVE_HARNESSES[k] !== undefined)];
  return kinds.map((k) => `'${k}'`).join(', ');
}

/** The configurations of a native entry (`claude_code`, `codex`, `opencode`, `pi`), one per model. */
function nativeSelectionConfigs(spec: Record<string, unknown>, kind: NativeHarnessKind): SelectionConfig[] {
  const harness = NATIVE_HARNESSES[kind];
  if (harness === undefined) {
    throw new UnsupportedFeature(`agent harness '${kind}' is not available in this build: use ${availableKinds()}`, {
      harness: kind,
    });
  }
  const selection = resolveNativeSelection(spec, harness.defaults);
  harness.check?.(selection);
  const endpointHost = selection.baseUrl !== undefined ? new URL(selection.baseUrl).host : null;
  return selection.models.map((model) => ({
    harness: kind,
    model,
    name: selection.name,
    endpointHost,
    upstream: () => harness.upstream(selection, model),
    newDriver: () => harness.newDriver(selection, model),
  }));
}

/** `kit.agents`: one selection per model × trial, validated, with no I/O. */
export function createAgentSelections(
  host: AgentHost,
  specs: readonly AgentSelectionSpec[],
  options: AgentSelectionOptions = {},
): AgentSelection[] {
  if (!Array.isArray(specs) || specs.length === 0) {
    throw new ModelValidationError("kit.agents needs a list of selections such as [{ harness: 'openai', model: 'm' }]");
  }
  const trials = options?.trials ?? 1;
  if (!Number.isInteger(trials) || trials < 1 || trials > 1000) {
    throw new ModelValidationError('kit.agents trials must be a whole number from 1 to 1000');
  }
  const selections: AgentSelection[] = [];
  for (const spec of specs) {
    for (const config of selectionConfigs(spec)) {
      for (let trial = 1; trial <= trials; trial++) selections.push(new AgentSelection(host, config, trial));
    }
  }
  return selections;
}
