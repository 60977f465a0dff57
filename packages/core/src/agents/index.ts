export * from './agentOptions';
export * from './AgentSelection';
export * from './AgentSession';
export { functionNameOf } from './toolCatalog';
