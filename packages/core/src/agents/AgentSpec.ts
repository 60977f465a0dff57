import { ModelValidationError } from '../errors';
import type { AgentRunOptions, AgentSelectionSpec } from './agentOptions';
import { AgentSelection } from './AgentSelection';

/** Options of `new AgentSpec(...)`: the agent, its prompt and `agent.run`'s options. */
export interface AgentSpecOptions extends AgentRunOptions {
  /**
   * The agent: a selection from `kit.agents(...)`, or one selection entry as `kit.agents` takes it
   * (it must name exactly one model, e.g. `{ harness: 'acp', manifest, models: ['fixture'] }`).
   */
  readonly agent: AgentSelection | AgentSelectionSpec;
  /** The one prompt of the execution (one turn). */
  readonly prompt: string;
}

/**
 * A one-shot agent execution for `kit.run(spec)` / `kit.submit(spec)` (contract §3): the same work as
 * `agent.run(prompt, options)`, described as a value first. Construction does no I/O and validates
 * only its own shape; the agent entry and the run options are checked by the kit when it runs.
 *
 * @example
 * const result = await kit.run(new AgentSpec({ agent: { harness: 'acp', manifest, models: ['fixture'] },
 *   prompt: 'Quote 2 kg local', servers: [shipping], tools: ['shipping:shipping_quote'] }));
 */
export class AgentSpec {
  readonly kind = 'agent' as const;
  readonly agent: AgentSelection | AgentSelectionSpec;
  readonly prompt: string;
  /** `agent.run`'s options (servers, tools, timeoutMs, caseId, evaluations). */
  readonly options: AgentRunOptions;

  constructor(options: AgentSpecOptions) {
    if (typeof options !== 'object' || options === null) {
      throw new ModelValidationError('AgentSpec needs options, e.g. new AgentSpec({ agent, prompt, servers })');
    }
    const { agent, prompt, ...run } = options;
    if (!(agent instanceof AgentSelection) && (typeof agent !== 'object' || agent === null)) {
      throw new ModelValidationError(
        "AgentSpec needs an agent: a selection from kit.agents(...) or an entry such as { harness: 'openai', model: 'm' }",
      );
    }
    if (typeof prompt !== 'string' || prompt.trim() === '') {
      throw new ModelValidationError('AgentSpec needs a non-empty prompt string');
    }
    this.agent = agent;
    this.prompt = prompt;
    this.options = run;
  }

  /**
   * @internal The one selection this spec runs: the given selection, or the single selection its
   * entry expands to through `select` (the kit's `kit.agents`).
   */
  selection(select: (entry: AgentSelectionSpec) => AgentSelection[]): AgentSelection {
    if (this.agent instanceof AgentSelection) return this.agent;
    const selections = select(this.agent);
    if (selections.length !== 1) {
      throw new ModelValidationError(
        `AgentSpec runs one agent, but its entry names ${selections.length} models: give it one model, or loop over kit.agents(...) and use agent.run`,
      );
    }
    return selections[0];
  }
}

/** True for an `AgentSpec` (for `kit.run` / `kit.submit`). */
export function isAgentSpec(value: unknown): value is AgentSpec {
  return value instanceof AgentSpec;
}
