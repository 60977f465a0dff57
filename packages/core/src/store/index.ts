/**
 * @sf-m3/core/store: what a store author needs (packages/core/docs/writing-a-store.md): the
 * `ExecutionStore` interface and its records, the in-memory reference store, the input rules every
 * store applies, the aggregation helpers and lineage key the SQL stores share, and the contract
 * suite a store's Jest test runs (`describeExecutionStoreContract`). Our SQLite and Postgres stores
 * are built on it. Importing it loads neither Jest nor a database driver.
 */

// the interface, its records and the in-memory reference store
export type { ExecutionListFilter, ExecutionStore, FinishedExecution, StoredEvaluation } from './ExecutionStore';
export { InMemoryExecutionStore } from './InMemoryExecutionStore';
export type {
  AttemptCounts,
  AttemptRecord,
  ExecutionRecord,
  RunProblem,
  RunRecord,
  RunStatus,
  ServerBindingRecord,
  SessionRecord,
  SuiteRecord,
  TurnRecord,
} from './records';
export type { RunProcess } from './runProcess';
export { shardRecordToSave } from './runShards';
export type { RunShardRecord } from './runShards';

// the errors a store throws (the same classes `@sf-m3/core` exports), so a store never loads the
// kit's entry to throw one
export { ExecutionNotFound, ModelValidationError, StoreError, StoreSchemaError } from '../errors/M3Error';

// input rules every store applies before it writes
export { finishedExecutionLabels, snapshotMetadata } from './finishedExecutionLabels';
export { canonicalInstant, normalizeSuiteName, requireId, requireJudgeRequestLimit } from './storeInputs';
export { checkedEvidenceDigest, evidenceDigestOf, verifyRawEvidence } from './verifyRawEvidence';

// aggregation (contract §10): the query, its validation, items, counts, lineage and intervals
export { AGGREGATION_LABELS } from './AggregationQuery';
export type {
  AggregateValues,
  AggregationLabel,
  AggregationQuery,
  AggregationReport,
  FixedLabel,
  TimeBucket,
} from './AggregationQuery';
export { labelValue } from './aggregation/AggregationItem';
export type { AggregationItem } from './aggregation/AggregationItem';
export { aggregateItems, itemMatches } from './aggregation/aggregateItems';
export { ALL_STATUSES, buildAggregateValues, compareGroupKeys, EMPTY_COUNTS } from './aggregation/aggregateValues';
export type { AggregateCounts } from './aggregation/aggregateValues';
export { aggregationReportOfRows, countsOfRow } from './aggregation/aggregationReportOfRows';
export type { AggregationCountsRow } from './aggregation/aggregationReportOfRows';
export { caseIdOfEvaluation, evaluationItem, requirementItem } from './aggregation/buildAggregationItems';
export { isLaterRow, lineageKey } from './aggregation/lineage';
export type { EvaluationLineage } from './aggregation/lineage';
export { lineageId } from './aggregation/lineageId';
export { isTimeBucket, TIME_BUCKETS, timeBucketOf } from './aggregation/timeBucket';
export { metadataKeyOf, validateAggregationQuery } from './aggregation/validateAggregationQuery';
export type { LabelFilter, NormalizedAggregationQuery } from './aggregation/validateAggregationQuery';
export { wilsonInterval } from './aggregation/wilsonInterval';

// retention and unfinished runs (contract §20)
export { closeAbandonedRuns } from './closeAbandonedRuns';
export { interruptUnfinished } from './interruptUnfinished';
export type { InterruptedWork, InterruptionReason } from './interruptUnfinished';
export { selectPrunedRuns, validatePruneSelection } from './prune';
export type { PruneOptions, PruneReport, PruneSelection } from './prune';

// the contract suite a store's Jest test runs (loads Jest's globals only when called)
export { describeExecutionStoreContract } from './contract/describeExecutionStoreContract';
export { describeRunShardContract } from './contract/describeRunShardContract';

// the SQL stores' shared facts (column and label maps, aggregation item sources and partials, the
// finish check, the saved-trace rebuild), spelled per database by a SqlDialect
export type { SqlDialect } from './sql/SqlDialect';
export { aggregationItemSources, aggregationLabelSql, aggregationSourceSelect } from './sql/aggregationItemSources';
export type { AggregationItemSource, AggregationItemSources } from './sql/aggregationItemSources';
export { AGGREGATION_PARTIALS } from './sql/aggregationPartials';
export type { AggregationPartial } from './sql/aggregationPartials';
export { checkedBlobs, checkFinishedExecution } from './sql/checkFinishedExecution';
export type { CheckedBlob, CheckedFinish } from './sql/checkFinishedExecution';
export { columnNames } from './sql/columnNames';
export { EVALUATION_COLUMNS, evaluationColumns } from './sql/evaluationColumns';
export type { EvaluationColumn, EvaluationColumns } from './sql/evaluationColumns';
export { checkedExecutionRecord, EXECUTION_COLUMNS, executionColumnValues } from './sql/executionColumns';
export type { ExecutionColumn } from './sql/executionColumns';
export { EVALUATION_LABEL_COLUMNS, EXECUTION_LABEL_COLUMNS } from './sql/labelColumns';
export { savedTrace } from './sql/savedTrace';
export type { SavedTraceHeader } from './sql/savedTrace';
