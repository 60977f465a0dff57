export * from './AggregationQuery';
export * from './ExecutionStore';
export * from './records';
export * from './InMemoryExecutionStore';
export * from './aggregation';
export * from './storeInputs';
export * from './verifyRawEvidence';
export * from './interruptUnfinished';
