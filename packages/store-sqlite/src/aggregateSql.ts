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

/** The partial counts each trial row carries, summed per group and for the totals. */
const PARTIALS = [
  'evaluation_count',
  'passed',
  'failed',
  'inconclusive',
  'error',
  'not_run',
  'missing',
  'pending',
  'score_sum',
  'score_count',
] as const;

/**
 * One statement computing the raw counts of every group and of the totals (the row with
 * `is_total = 1`). Items are scanned and grouped once, into one row per (group, case, execution):
 * a trial with its partial counts and whether all its expected items passed. Groups and totals are
 * both summed from those trial rows (groups partition the items, so a trial's totals verdict is
 * the conjunction of its per-group verdicts); pass^k and pass@k come from trials per case.
 */
export function aggregateCountsSql(query: NormalizedAggregationQuery): SqlQuery {
  const params: SqlValue[] = [];
  const grouped = query.groupBy.length > 0;
  const selects = [sourceSelect(ROWS, query, params, grouped)];
  if (!query.statusScoped) selects.push(sourceSelect(REQUIREMENTS, query, params, grouped));
  const keys = query.groupBy.map((_, i) => `g${i}`);
  const keyList = keys.map((k) => `${k}, `).join('');
  const sums = PARTIALS.map((p) => `TOTAL(${p}) AS ${p}`).join(', ');
  const nullKeys = keys.map((k) => `NULL AS ${k}, `).join('');
  const groupsPart = grouped
    ? `
SELECT 0 AS is_total, gc.*, COALESCE(cs.cases_all, 0) AS cases_all, COALESCE(cs.cases_any, 0) AS cases_any
FROM (SELECT ${keyList} ${sums}, COUNT(DISTINCT execution_id) AS execution_count, COUNT(DISTINCT case_id) AS case_count
      FROM trials GROUP BY ${keys.join(', ')}) gc
LEFT JOIN (SELECT ${keyList} TOTAL(all_passed = 1) AS cases_all, TOTAL(any_passed = 1) AS cases_any
           FROM (SELECT ${keyList} MIN(trial_passed) AS all_passed, MAX(trial_passed) AS any_passed
                 FROM trials WHERE case_id IS NOT NULL GROUP BY ${keyList} case_id)
           GROUP BY ${keys.join(', ')}) cs
  ON ${keys.map((k) => `cs.${k} IS gc.${k}`).join(' AND ')}
UNION ALL`
    : '';
  const sql = `
WITH items AS NOT MATERIALIZED (${selects.join('\nUNION ALL\n')}),
trials AS MATERIALIZED (
  SELECT ${keyList} case_id, execution_id,
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
    MIN(CASE WHEN kind = 'pending' THEN NULL WHEN kind = 'row' AND status = 'passed' THEN 1 ELSE 0 END) AS trial_passed
  FROM items GROUP BY ${keyList} case_id, execution_id
),
total_cases AS MATERIALIZED (
  SELECT MIN(trial_passed) AS all_passed, MAX(trial_passed) AS any_passed
  FROM (SELECT case_id, MIN(trial_passed) AS trial_passed FROM trials WHERE case_id IS NOT NULL GROUP BY case_id, execution_id)
  GROUP BY case_id
)${groupsPart}
SELECT 1 AS is_total, ${nullKeys} ${sums}, COUNT(DISTINCT execution_id) AS execution_count,
  COUNT(DISTINCT case_id) AS case_count,
  (SELECT TOTAL(all_passed = 1) FROM total_cases) AS cases_all,
  (SELECT TOTAL(any_passed = 1) FROM total_cases) AS cases_any
FROM trials`;
  return { sql, params };
}
