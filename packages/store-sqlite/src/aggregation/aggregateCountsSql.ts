import {
  AGGREGATION_PARTIALS as PARTIALS,
  aggregationItemSources,
  aggregationSourceSelect,
  type NormalizedAggregationQuery,
} from '@sf-m3/core/store';
import type { SqlValue } from '../SqliteConnection';
import { SQLITE_DIALECT } from '../sqliteDialect';

/** The two sources of aggregation items (latest rows, missing or pending requirements), in SQLite. */
const SOURCES = aggregationItemSources(SQLITE_DIALECT);

/** A statement and its parameters. */
export interface SqlQuery {
  readonly sql: string;
  readonly params: SqlValue[];
}

/**
 * The counts of one trial's latest rows, in `AGGREGATION_PARTIALS` order, then `trial_passed`: every row is
 * an evaluation (status is never NULL), and the trial passed when all its rows passed.
 */
const ROW_TRIAL_COUNTS = `COUNT(*) AS evaluation_count, TOTAL(status = 'passed') AS passed,
    TOTAL(status = 'failed') AS failed, TOTAL(status = 'inconclusive') AS inconclusive,
    TOTAL(status = 'error') AS error, TOTAL(status = 'not_run') AS not_run, 0 AS missing, 0 AS pending,
    TOTAL(score) AS score_sum, COUNT(score) AS score_count, MIN(status = 'passed') AS trial_passed`;

/**
 * The counts of one trial's missing and pending requirements: a missing one fails the trial, a
 * pending one leaves it open (NULL). `kind` is read once per item: its test runs subqueries.
 */
const REQUIREMENT_TRIAL_COUNTS = `0 AS evaluation_count, 0 AS passed, 0 AS failed, 0 AS inconclusive, 0 AS error,
    0 AS not_run, COUNT(*) - TOTAL(kind = 'pending') AS missing, TOTAL(kind = 'pending') AS pending,
    0 AS score_sum, 0 AS score_count, CASE WHEN COUNT(*) > TOTAL(kind = 'pending') THEN 0 END AS trial_passed`;

/** `1, 2, …, n`: GROUP BY / ORDER BY by result position (a label alias could name a column too). */
const positions = (n: number): string => Array.from({ length: n }, (_, i) => String(i + 1)).join(', ');

const totalsOf = (columns: readonly string[]): string => columns.map((c) => `TOTAL(${c}) AS ${c}`).join(', ');

/** `GROUP BY` of the first `n` result columns, nothing for none; `ordered` adds the same `ORDER BY`. */
const groupedBy = (n: number, ordered = false): string =>
  n === 0 ? '' : `GROUP BY ${positions(n)}${ordered ? ` ORDER BY ${positions(n)}` : ''}`;

/** `SELECT …` of every part, as one UNION ALL. */
const unionOf = (parts: readonly string[], select: (part: string) => string): string =>
  parts.map(select).join('\n    UNION ALL\n    ');

/**
 * One statement computing the raw counts of every group and of the totals (the row with
 * `is_total = 1`).
 *
 * The latest rows are scanned and sorted once, into `row_trials`: one row per (group, case,
 * execution) with its partial counts and whether all its rows passed, kept in key order so the
 * later steps read it without sorting again. The missing and pending requirements (unless the
 * query is scoped by status, which leaves them out) are grouped likewise into the (small)
 * `requirement_trials`. The two never share a trial, nor an execution within a group: a
 * requirement is counted only where its execution has no row of its evaluator, and every query
 * selects one evaluator or groups by evaluator (`validateAggregationQuery`). So each count is
 * taken per part and added up — sums and distinct executions per group, pass^k/pass@k from one
 * row per (group, case) — and nothing sorts the trials a second time. The totals need one row per
 * (case, execution) across groups (groups partition the items, so a trial's totals verdict is the
 * conjunction of its per-group verdicts): one sort of the trials; ungrouped, the one group is the
 * totals.
 */
export function aggregateCountsSql(query: NormalizedAggregationQuery): SqlQuery {
  const params: SqlValue[] = [];
  const grouped = query.groupBy.length > 0;
  const keys = query.groupBy.map((_, i) => `g${i}`);
  const keyList = keys.map((k) => `${k}, `).join('');
  const trialKey = positions(keys.length + 2);
  const ctes = [
    `row_trials AS MATERIALIZED (
  SELECT ${keyList} case_id, execution_id, ${ROW_TRIAL_COUNTS}
  FROM (${aggregationSourceSelect(SQLITE_DIALECT, SOURCES.rows, query, params, grouped)}) GROUP BY ${trialKey} ORDER BY ${trialKey})`,
  ];
  const parts = ['row_trials'];
  if (!query.statusScoped) {
    ctes.push(`requirement_trials AS MATERIALIZED (
  SELECT ${keyList} case_id, execution_id, ${REQUIREMENT_TRIAL_COUNTS}
  FROM (${aggregationSourceSelect(SQLITE_DIALECT, SOURCES.requirements, query, params, grouped)}) GROUP BY ${trialKey} ORDER BY ${trialKey})`);
    parts.push('requirement_trials');
  }
  // A part of a UNION ALL takes no ORDER BY; the parts read ordered trials, so they stream in order.
  const caseGroup = groupedBy(keys.length + 1);
  const group = groupedBy(keys.length);
  ctes.push(
    `cases AS MATERIALIZED (
  SELECT ${keyList} case_id, MIN(all_passed) AS all_passed, MAX(any_passed) AS any_passed FROM (
    ${unionOf(
      parts,
      (part) => `SELECT ${keyList} case_id, MIN(trial_passed) AS all_passed, MAX(trial_passed) AS any_passed
    FROM ${part} WHERE case_id IS NOT NULL ${caseGroup}`,
    )})
  ${groupedBy(keys.length + 1, true)})`,
    `group_counts AS MATERIALIZED (
  SELECT ${keyList} ${totalsOf([...PARTIALS, 'execution_count'])} FROM (
    ${unionOf(
      parts,
      (part) => `SELECT ${keyList} ${totalsOf(PARTIALS)}, COUNT(DISTINCT execution_id) AS execution_count
    FROM ${part} ${group}`,
    )})
  ${group})`,
    `group_cases AS MATERIALIZED (
  SELECT ${keyList} COUNT(*) AS case_count, TOTAL(all_passed = 1) AS cases_all, TOTAL(any_passed = 1) AS cases_any
  FROM cases ${group})`,
    `groups AS MATERIALIZED (
  SELECT ${keys.map((k) => `n.${k}, `).join('')}${PARTIALS.map((p) => `n.${p}, `).join('')}n.execution_count,
    COALESCE(c.case_count, 0) AS case_count, COALESCE(c.cases_all, 0) AS cases_all, COALESCE(c.cases_any, 0) AS cases_any
  FROM group_counts n LEFT JOIN group_cases c ON ${grouped ? keys.map((k) => `c.${k} IS n.${k}`).join(' AND ') : 1})`,
  );
  if (!grouped) return { sql: `WITH ${ctes.join(',\n')}\nSELECT 1 AS is_total, * FROM groups`, params };
  ctes.push(
    `total_trials AS MATERIALIZED (
  SELECT case_id, execution_id, MIN(trial_passed) AS trial_passed FROM (
    ${unionOf(parts, (part) => `SELECT case_id, execution_id, trial_passed FROM ${part}`)})
  GROUP BY 1, 2 ORDER BY 1, 2)`,
    `total_cases AS MATERIALIZED (
  SELECT MIN(trial_passed) AS all_passed, MAX(trial_passed) AS any_passed FROM total_trials
  WHERE case_id IS NOT NULL GROUP BY case_id)`,
  );
  const sql = `WITH ${ctes.join(',\n')}
SELECT 0 AS is_total, * FROM groups
UNION ALL
SELECT 1 AS is_total, ${keys.map((k) => `NULL AS ${k}, `).join('')}${totalsOf(PARTIALS)},
  (SELECT COUNT(DISTINCT execution_id) FROM total_trials) AS execution_count,
  (SELECT COUNT(*) FROM total_cases) AS case_count,
  (SELECT TOTAL(all_passed = 1) FROM total_cases) AS cases_all,
  (SELECT TOTAL(any_passed = 1) FROM total_cases) AS cases_any
FROM groups`;
  return { sql, params };
}
