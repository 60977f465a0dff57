export * from './AggregationQuery';
export * from './ExecutionStore';
export * from './records';
