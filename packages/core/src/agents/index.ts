export * from './agentOptions';
export * from './AgentSelection';
export * from './AgentSession';
export * from './AgentSpec';
export { functionNameOf } from './toolCatalog';
