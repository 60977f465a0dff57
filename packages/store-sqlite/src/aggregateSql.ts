import {
  metadataKeyOf,
  type AggregationLabel,
  type FixedLabel,
  type NormalizedAggregationQuery,
  type TimeBucket,
} from '@sf-m3/core';
import type { SqlValue } from './SqliteConnection';

/** How one source of aggregation items spells each label in SQL. */
interface ItemSource {
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
const ROWS: ItemSource = {
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
const REQUIREMENTS: ItemSource = {
  from: 'execution_required r JOIN executions x ON x.execution_id = r.execution_id',
  where:
    'NOT EXISTS (SELECT 1 FROM evaluation_lineages l WHERE l.execution_key = r.execution_id AND l.evaluator = r.evaluator)',
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
function sourceSelect(
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

/**
 * SQL computing the raw counts of every group (or of the totals when `grouped` is false): one
 * row per group with columns g0..gn, the counts, and the pass^k / pass@k case counts.
 */
export function aggregateCountsSql(query: NormalizedAggregationQuery, grouped: boolean): SqlQuery {
  const params: SqlValue[] = [];
  const selects = [sourceSelect(ROWS, query, params, grouped)];
  if (!query.statusScoped) selects.push(sourceSelect(REQUIREMENTS, query, params, grouped));
  const keys = grouped ? query.groupBy.map((_, i) => `g${i}`) : [];
  const keyList = keys.map((k) => `${k}, `).join('');
  const groupClause = keys.length > 0 ? `GROUP BY ${keys.join(', ')}` : '';
  const join = keys.length > 0 ? keys.map((k) => `c.${k} IS t.${k}`).join(' AND ') : '1';
  const sql = `
WITH items AS (${selects.join('\nUNION ALL\n')}),
totals AS (
  SELECT ${keyList}
    TOTAL(kind = 'row') AS evaluation_count,
    TOTAL(status = 'passed') AS passed,
    TOTAL(status = 'failed') AS failed,
    TOTAL(status = 'inconclusive') AS inconclusive,
    TOTAL(status = 'error') AS error,
    TOTAL(status = 'not_run') AS not_run,
    TOTAL(kind = 'missing') AS missing,
    TOTAL(kind = 'pending') AS pending,
    TOTAL(score) AS score_sum,
    COUNT(score) AS score_count,
    COUNT(DISTINCT execution_id) AS execution_count,
    COUNT(DISTINCT case_id) AS case_count
  FROM items ${groupClause}
),
trials AS (
  SELECT ${keyList} case_id, MIN(CASE WHEN kind = 'row' AND status = 'passed' THEN 1 ELSE 0 END) AS passed
  FROM items WHERE kind <> 'pending' AND case_id IS NOT NULL
  GROUP BY ${keyList} case_id, COALESCE(execution_id, '')
),
cases AS (
  SELECT ${keyList} TOTAL(all_passed) AS cases_all, TOTAL(any_passed) AS cases_any
  FROM (SELECT ${keyList} MIN(passed) AS all_passed, MAX(passed) AS any_passed FROM trials GROUP BY ${keyList} case_id)
  ${groupClause}
)
SELECT t.*, COALESCE(c.cases_all, 0) AS cases_all, COALESCE(c.cases_any, 0) AS cases_any
FROM totals t LEFT JOIN cases c ON ${join}`;
  return { sql, params };
}
