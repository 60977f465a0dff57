import { type AggregationLabel, type TimeBucket } from '@sf-m3/core';
import { metadataKeyOf, type FixedLabel, type NormalizedAggregationQuery } from '@sf-m3/core/store';

/**
 * The aggregation of contract §10 as one PostgreSQL statement: the same plan as the SQLite store's
 * `aggregateSql.ts` (items → one trial row per (group, case, execution) → groups and totals), in
 * PostgreSQL's dialect. The parity test holds it to the SQLite store's and the in-memory engine's
 * results on generated histories.
 */

/** How one source of aggregation items spells each label in SQL. */
interface ItemSource {
  readonly from: string;
  readonly where: string;
  readonly labels: Readonly<Record<FixedLabel, string>>;
  readonly metadata: string;
  readonly kind: string;
  readonly status: string;
  readonly score: string;
  /** ISO creation time of the execution (text). */
  readonly time: string;
}

const ROWS: ItemSource = {
  from: 'evaluations e',
  where: 'e.is_latest',
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
  metadata: 'e.metadata',
  kind: "'row'",
  status: 'e.status',
  score: 'e.score',
  time: 'e.execution_created_at',
};

/** Required evaluators an execution has no row for: `pending` while it or a linked attempt runs, else `missing`. */
const REQUIREMENTS: ItemSource = {
  from: 'execution_required r JOIN executions x ON x.execution_id = r.execution_id',
  where: 'NOT EXISTS (SELECT 1 FROM evaluations p WHERE p.execution_id = r.execution_id AND p.evaluator = r.evaluator)',
  labels: {
    evaluator: 'r.evaluator',
    runId: 'COALESCE(x.label_run_id, x.run_id)',
    suiteName: 'COALESCE(x.label_suite_name, x.suite_name)',
    caseId: 'COALESCE(x.label_case_id, x.case_id)',
    executionId: 'x.execution_id',
    turnId: 'NULL::text',
    status: 'NULL::text',
    server: 'x.server',
    tool: 'NULL::text',
    transport: 'x.transport',
    harness: 'x.harness',
    model: 'x.model',
    trial: 'x.trial',
    judgeModel: 'NULL::text',
    rubricId: 'NULL::text',
    matrixId: 'x.matrix_id',
  },
  metadata: 'x.metadata',
  kind: `CASE WHEN x.outcome IS NULL
     OR EXISTS (SELECT 1 FROM attempts a WHERE a.attempt_id = x.attempt_id AND a.outcome IS NULL)
     OR EXISTS (SELECT 1 FROM attempt_executions ae JOIN attempts a ON a.attempt_id = ae.attempt_id
                WHERE ae.execution_id = x.execution_id AND a.outcome IS NULL)
     THEN 'pending' ELSE 'missing' END`,
  status: 'NULL::text',
  score: 'NULL::double precision',
  time: 'x.created_at',
};

/** The instant as UTC timestamp (the text is canonical ISO-8601 with `Z`). */
const utc = (time: string): string => `(${time}::timestamptz AT TIME ZONE 'UTC')`;

function labelSql(source: ItemSource, label: AggregationLabel | TimeBucket, params: unknown[]): string {
  switch (label) {
    case 'time.hour':
      return `to_char(${utc(source.time)}, 'YYYY-MM-DD"T"HH24":00:00Z"')`;
    case 'time.day':
      return `to_char(${utc(source.time)}, 'YYYY-MM-DD')`;
    case 'time.week':
      return `to_char(date_trunc('week', ${utc(source.time)}), 'YYYY-MM-DD')`;
  }
  const key = metadataKeyOf(label);
  if (key !== null) {
    params.push(key);
    return `(${source.metadata} ->> $${params.length}::text)`;
  }
  return source.labels[label as FixedLabel];
}

function sourceSelect(
  source: ItemSource,
  query: NormalizedAggregationQuery,
  params: unknown[],
  grouped: boolean,
): string {
  const conditions = [source.where];
  if (query.from !== null) {
    params.push(query.from);
    conditions.push(`${source.time} >= $${params.length}`);
  }
  if (query.to !== null) {
    params.push(query.to);
    conditions.push(`${source.time} < $${params.length}`);
  }
  for (const filter of query.filters) {
    const column = labelSql(source, filter.label, params);
    const values = filter.values.filter((v): v is string => v !== null);
    const parts: string[] = [];
    if (values.length > 0) {
      params.push(values);
      parts.push(`${column} = ANY($${params.length}::text[])`);
    }
    if (filter.values.includes(null)) parts.push(`${column} IS NULL`);
    conditions.push(`(${parts.join(' OR ')})`);
  }
  const groups = (grouped ? query.groupBy : []).map((label, i) => `${labelSql(source, label, params)} AS g${i}`);
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
export interface PgQuery {
  readonly text: string;
  readonly values: unknown[];
}

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

const count = (condition: string): string => `COUNT(*) FILTER (WHERE ${condition})`;

/** One statement computing the raw counts of every group and of the totals (`is_total = 1`). */
export function aggregateCountsSql(query: NormalizedAggregationQuery): PgQuery {
  const values: unknown[] = [];
  const grouped = query.groupBy.length > 0;
  const selects = [sourceSelect(ROWS, query, values, grouped)];
  if (!query.statusScoped) selects.push(sourceSelect(REQUIREMENTS, query, values, grouped));
  const keys = query.groupBy.map((_, i) => `g${i}`);
  const keyList = keys.map((k) => `${k}, `).join('');
  const sums = PARTIALS.map((p) => `COALESCE(SUM(${p}), 0)::float8 AS ${p}`).join(', ');
  const nullKeys = keys.map((k) => `NULL::text AS ${k}, `).join('');
  const groupsPart = grouped
    ? `
SELECT 0 AS is_total, gc.*, COALESCE(cs.cases_all, 0) AS cases_all, COALESCE(cs.cases_any, 0) AS cases_any
FROM (SELECT ${keyList} ${sums}, COUNT(DISTINCT execution_id) AS execution_count, COUNT(DISTINCT case_id) AS case_count
      FROM trials GROUP BY ${keys.join(', ')}) gc
LEFT JOIN (SELECT ${keyList} ${count('all_passed = 1')} AS cases_all, ${count('any_passed = 1')} AS cases_any
           FROM (SELECT ${keyList} MIN(trial_passed) AS all_passed, MAX(trial_passed) AS any_passed
                 FROM trials WHERE case_id IS NOT NULL GROUP BY ${keyList} case_id) per_case
           GROUP BY ${keys.join(', ')}) cs
  ON ${keys.map((k) => `cs.${k} IS NOT DISTINCT FROM gc.${k}`).join(' AND ')}
UNION ALL`
    : '';
  const text = `
WITH items AS NOT MATERIALIZED (${selects.join('\nUNION ALL\n')}),
trials AS MATERIALIZED (
  SELECT ${keyList} case_id, execution_id,
    ${count("kind = 'row'")} AS evaluation_count,
    ${count("status = 'passed'")} AS passed,
    ${count("status = 'failed'")} AS failed,
    ${count("status = 'inconclusive'")} AS inconclusive,
    ${count("status = 'error'")} AS error,
    ${count("status = 'not_run'")} AS not_run,
    ${count("kind = 'missing'")} AS missing,
    ${count("kind = 'pending'")} AS pending,
    SUM(score) AS score_sum,
    COUNT(score) AS score_count,
    MIN(CASE WHEN kind = 'pending' THEN NULL WHEN kind = 'row' AND status = 'passed' THEN 1 ELSE 0 END) AS trial_passed
  FROM items GROUP BY ${keyList} case_id, execution_id
),
total_cases AS MATERIALIZED (
  SELECT MIN(trial_passed) AS all_passed, MAX(trial_passed) AS any_passed
  FROM (SELECT case_id, MIN(trial_passed) AS trial_passed FROM trials WHERE case_id IS NOT NULL
        GROUP BY case_id, execution_id) per_trial
  GROUP BY case_id
)${groupsPart}
SELECT 1 AS is_total, ${nullKeys} ${sums}, COUNT(DISTINCT execution_id) AS execution_count,
  COUNT(DISTINCT case_id) AS case_count,
  (SELECT ${count('all_passed = 1')} FROM total_cases) AS cases_all,
  (SELECT ${count('any_passed = 1')} FROM total_cases) AS cases_any
FROM trials`;
  return { text, values };
}
