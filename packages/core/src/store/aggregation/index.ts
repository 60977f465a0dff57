export * from './AggregationItem';
export * from './aggregateItems';
export * from './aggregateValues';
export * from './buildAggregationItems';
export * from './lineage';
export * from './timeBucket';
export * from './validateAggregationQuery';
export * from './wilsonInterval';
