export * from './agentOptions';
export * from './AgentSelection';
export * from './AgentSession';
export * from './AgentSpec';
export { functionNameOf } from './toolCatalog';
export { NATIVE_HARNESS_DEFAULTS } from './native/nativeHarnessDefaults';
export type { NativeHarnessDefaults } from './native/nativeSelection';
