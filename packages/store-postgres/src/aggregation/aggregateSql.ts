import {
  AGGREGATION_PARTIALS as PARTIALS,
  aggregationItemSources,
  aggregationSourceSelect,
  type NormalizedAggregationQuery,
} from '@sf-m3/core/store';
import { POSTGRES_DIALECT } from '../postgresDialect';

/**
 * The aggregation of contract §10 as one PostgreSQL statement: the same plan as the SQLite store's
 * `aggregateCountsSql.ts` (items → one trial row per (group, case, execution) → groups and totals), in
 * PostgreSQL's dialect. The parity test holds it to the SQLite store's and the in-memory engine's
 * results on generated histories.
 */

/** The two sources of aggregation items (latest rows, missing or pending requirements), in PostgreSQL. */
const SOURCES = aggregationItemSources(POSTGRES_DIALECT);

/** A statement and its parameters. */
export interface PgQuery {
  readonly text: string;
  readonly values: unknown[];
}

const count = (condition: string): string => `COUNT(*) FILTER (WHERE ${condition})`;

/** One statement computing the raw counts of every group and of the totals (`is_total = 1`). */
export function aggregateCountsSql(query: NormalizedAggregationQuery): PgQuery {
  const values: unknown[] = [];
  const grouped = query.groupBy.length > 0;
  const selects = [aggregationSourceSelect(POSTGRES_DIALECT, SOURCES.rows, query, values, grouped)];
  if (!query.statusScoped) {
    selects.push(aggregationSourceSelect(POSTGRES_DIALECT, SOURCES.requirements, query, values, grouped));
  }
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
