export * from './ExecutionResult';
