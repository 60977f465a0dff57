/** The two sources of aggregation items (latest rows, missing or pending requirements) as SQL. */
import { type AggregationLabel, type TimeBucket } from '@sf-m3/core';
import { metadataKeyOf, type FixedLabel, type NormalizedAggregationQuery } from '@sf-m3/core/store';
import type { SqlValue } from '../SqliteConnection';

/** How one source of aggregation items spells each label in SQL. */
export interface ItemSource {
  readonly from: string;
  /** Base condition (always true rows of this source). */
  readonly where: string;
  readonly labels: Readonly<Record<FixedLabel, string>>;
  readonly metadataJson: string;
  readonly kind: string;
  readonly status: string;
  readonly score: string;
  /** ISO creation time of the execution. */
  readonly time: string;
}

/** Latest lineage rows: every label is a column of `evaluations`. */
export const ROWS: ItemSource = {
  from: 'evaluations e',
  where: 'e.is_latest = 1',
  labels: {
    evaluator: 'e.evaluator',
    runId: 'e.run_id',
    suiteName: 'e.suite_name',
    caseId: 'e.case_id',
    executionId: 'e.execution_id',
    turnId: 'e.turn_id',
    status: 'e.status',
    server: 'e.server',
    tool: 'e.tool',
    transport: 'e.transport',
    harness: 'e.harness',
    model: 'e.model',
    trial: 'e.trial',
    judgeModel: 'e.judge_model',
    rubricId: 'e.rubric_id',
    matrixId: 'e.matrix_id',
  },
  metadataJson: 'e.metadata_json',
  kind: "'row'",
  status: 'e.status',
  score: 'e.score',
  time: 'e.execution_created_at',
};

/**
 * Required evaluators an execution has no row for: `pending` while the execution or a linked
 * attempt runs, else `missing`. Labelled like a row of that execution, without status, tool,
 * judge model or rubric.
 */
export const REQUIREMENTS: ItemSource = {
  from: 'execution_required r JOIN executions x ON x.execution_id = r.execution_id',
  where: 'NOT EXISTS (SELECT 1 FROM evaluations p WHERE p.execution_id = r.execution_id AND p.evaluator = r.evaluator)',
  labels: {
    evaluator: 'r.evaluator',
    runId: 'COALESCE(x.label_run_id, x.run_id)',
    suiteName: 'COALESCE(x.label_suite_name, x.suite_name)',
    caseId: 'COALESCE(x.label_case_id, x.case_id)',
    executionId: 'x.execution_id',
    turnId: 'NULL',
    status: 'NULL',
    server: 'x.server',
    tool: 'NULL',
    transport: 'x.transport',
    harness: 'x.harness',
    model: 'x.model',
    trial: 'x.trial',
    judgeModel: 'NULL',
    rubricId: 'NULL',
    matrixId: 'x.matrix_id',
  },
  metadataJson: 'x.metadata_json',
  kind: `CASE WHEN x.outcome IS NULL
     OR EXISTS (SELECT 1 FROM attempts a WHERE a.attempt_id = x.attempt_id AND a.outcome IS NULL)
     OR EXISTS (SELECT 1 FROM attempt_executions ae JOIN attempts a ON a.attempt_id = ae.attempt_id
                WHERE ae.execution_id = x.execution_id AND a.outcome IS NULL)
     THEN 'pending' ELSE 'missing' END`,
  status: 'NULL',
  score: 'NULL',
  time: 'x.created_at',
};

function labelSql(source: ItemSource, label: AggregationLabel | TimeBucket): string {
  switch (label) {
    case 'time.hour':
      return `strftime('%Y-%m-%dT%H:00:00Z', ${source.time})`;
    case 'time.day':
      return `date(${source.time})`;
    case 'time.week':
      return `date(${source.time}, 'weekday 0', '-6 days')`;
  }
  const key = metadataKeyOf(label);
  // Keys were validated to hold no quote or backslash, so they are safe inside the JSON path.
  if (key !== null) return `json_extract(${source.metadataJson}, '$."${key}"')`;
  return source.labels[label as FixedLabel];
}

/** SELECT of one item source with the query's filters pushed into its WHERE clause. */
export function sourceSelect(
  source: ItemSource,
  query: NormalizedAggregationQuery,
  params: SqlValue[],
  grouped: boolean,
): string {
  const conditions = [source.where];
  if (query.from !== null) {
    conditions.push(`${source.time} >= ?`);
    params.push(query.from);
  }
  if (query.to !== null) {
    conditions.push(`${source.time} < ?`);
    params.push(query.to);
  }
  for (const filter of query.filters) {
    const column = labelSql(source, filter.label);
    const values = filter.values.filter((v): v is string => v !== null);
    const parts: string[] = [];
    if (values.length > 0) {
      parts.push(`${column} IN (${values.map(() => '?').join(', ')})`);
      params.push(...values);
    }
    if (filter.values.includes(null)) parts.push(`${column} IS NULL`);
    conditions.push(`(${parts.join(' OR ')})`);
  }
  const groups = (grouped ? query.groupBy : []).map((label, i) => `${labelSql(source, label)} AS g${i}`);
  const columns = [
    `${source.kind} AS kind`,
    `${source.status} AS status`,
    `${source.score} AS score`,
    `${source.labels.executionId} AS execution_id`,
    `${source.labels.caseId} AS case_id`,
    ...groups,
  ];
  return `SELECT ${columns.join(', ')} FROM ${source.from} WHERE ${conditions.join(' AND ')}`;
}

/** A statement and its parameters. */
export interface SqlQuery {
  readonly sql: string;
  readonly params: SqlValue[];
}
