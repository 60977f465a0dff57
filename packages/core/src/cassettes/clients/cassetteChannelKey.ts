/** Who ran an agent execution, as its channel key names it. */
export interface AgentChannelIdentity {
  readonly harness: string;
  readonly model: string;
  /** The selection's `name`, when it gave one (a native selection's name other than its kind). */
  readonly name?: string;
  readonly trial: number;
}

/**
 * The channel key of one agent execution inside a test (contract §24): `<harness> <model> trial
 * <n>`, or `<name> trial <n>` for a named selection (its name stands for harness and model).
 */
export function agentChannelKey(identity: AgentChannelIdentity): string {
  const who = identity.name !== undefined ? identity.name : `${identity.harness} ${identity.model}`;
  return `${who} trial ${identity.trial}`;
}

/** The channel key of an `LLMJudge`'s requests inside a test: `judge <model>`. */
export function judgeChannelKey(model: string): string {
  return `judge ${model}`;
}
