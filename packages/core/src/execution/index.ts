export * from './ExecutionResult';
export { ExecutionHandle, type ExecutionEventFeed, type ExecutionHandleSource } from './ExecutionHandle';
export { buildExecutionResult, toErrorInfo, type ExecutionResultInput } from './buildExecutionResult';
