import { AGGREGATION_LABELS, type AggregationLabel, type FixedLabel, type TimeBucket } from '../AggregationQuery';
import { metadataKeyOf, type NormalizedAggregationQuery } from '../aggregation/validateAggregationQuery';
import { EVALUATION_LABEL_COLUMNS, EXECUTION_LABEL_COLUMNS } from './labelColumns';
import type { SqlDialect } from './SqlDialect';

/** How one source of aggregation items spells each label and value in SQL. */
export interface AggregationItemSource {
  readonly from: string;
  /** Base condition (what makes a row of the table an item of this source). */
  readonly where: string;
  readonly labels: Readonly<Record<FixedLabel, string>>;
  /** The JSON metadata labels. */
  readonly metadata: string;
  readonly kind: string;
  readonly status: string;
  readonly score: string;
  /** ISO creation time of the execution (text). */
  readonly time: string;
}

/** The two sources of aggregation items of a SQL store (contract §10). */
export interface AggregationItemSources {
  /** Latest lineage rows: every label is a column of `evaluations`. */
  readonly rows: AggregationItemSource;
  /**
   * Required evaluators an execution has no row for: `pending` while the execution or a linked
   * attempt runs, else `missing`. Labelled like a row of that execution, without turn, status,
   * tool, judge model or rubric.
   */
  readonly requirements: AggregationItemSource;
}

const REQUIREMENT_KIND = `CASE WHEN x.outcome IS NULL
     OR EXISTS (SELECT 1 FROM attempts a WHERE a.attempt_id = x.attempt_id AND a.outcome IS NULL)
     OR EXISTS (SELECT 1 FROM attempt_executions ae JOIN attempts a ON a.attempt_id = ae.attempt_id
                WHERE ae.execution_id = x.execution_id AND a.outcome IS NULL)
     THEN 'pending' ELSE 'missing' END`;

/** The label of a requirement item: the execution's column, its identity behind a relabel, else NULL. */
function requirementLabel(label: FixedLabel, dialect: SqlDialect): string {
  switch (label) {
    case 'evaluator':
      return 'r.evaluator';
    case 'executionId':
      return 'x.execution_id';
    case 'runId':
    case 'suiteName':
    case 'caseId':
      return `COALESCE(x.${EXECUTION_LABEL_COLUMNS[label]}, x.${EVALUATION_LABEL_COLUMNS[label]})`;
  }
  const column = (EXECUTION_LABEL_COLUMNS as Partial<Record<FixedLabel, string>>)[label];
  return column === undefined ? dialect.nullText : `x.${column}`;
}

const labelsOf = (spell: (label: FixedLabel) => string): Record<FixedLabel, string> =>
  Object.fromEntries(AGGREGATION_LABELS.map((label) => [label, spell(label)])) as Record<FixedLabel, string>;

/** Both item sources in `dialect`. */
export function aggregationItemSources(dialect: SqlDialect): AggregationItemSources {
  return {
    rows: {
      from: 'evaluations e',
      where: dialect.isTrue('e.is_latest'),
      labels: labelsOf((label) => `e.${EVALUATION_LABEL_COLUMNS[label]}`),
      metadata: `e.${dialect.metadataColumn}`,
      kind: "'row'",
      status: 'e.status',
      score: 'e.score',
      time: 'e.execution_created_at',
    },
    requirements: {
      from: 'execution_required r JOIN executions x ON x.execution_id = r.execution_id',
      where:
        'NOT EXISTS (SELECT 1 FROM evaluations p WHERE p.execution_id = r.execution_id AND p.evaluator = r.evaluator)',
      labels: labelsOf((label) => requirementLabel(label, dialect)),
      metadata: `x.${dialect.metadataColumn}`,
      kind: REQUIREMENT_KIND,
      status: dialect.nullText,
      score: dialect.nullReal,
      time: 'x.created_at',
    },
  };
}

/** A label (or time bucket) of `source` as a SQL expression; metadata keys are bound in `params`. */
export function aggregationLabelSql(
  dialect: SqlDialect,
  source: AggregationItemSource,
  label: AggregationLabel | TimeBucket,
  params: unknown[],
): string {
  switch (label) {
    case 'time.hour':
    case 'time.day':
    case 'time.week':
      return dialect.timeBucket(label, source.time);
  }
  const key = metadataKeyOf(label);
  if (key !== null) return dialect.metadataField(source.metadata, key, params);
  return source.labels[label as FixedLabel];
}

/**
 * The SELECT of one item source with the query's time range and filters pushed into its WHERE
 * clause: `kind, status, score, execution_id, case_id`, then `g0…` for the groups when `grouped`.
 */
export function aggregationSourceSelect(
  dialect: SqlDialect,
  source: AggregationItemSource,
  query: NormalizedAggregationQuery,
  params: unknown[],
  grouped: boolean,
): string {
  const conditions = [source.where];
  if (query.from !== null) conditions.push(`${source.time} >= ${dialect.bind(params, query.from)}`);
  if (query.to !== null) conditions.push(`${source.time} < ${dialect.bind(params, query.to)}`);
  for (const filter of query.filters) {
    const column = aggregationLabelSql(dialect, source, filter.label, params);
    const values = filter.values.filter((v): v is string => v !== null);
    const parts: string[] = [];
    if (values.length > 0) parts.push(dialect.inList(column, values, params));
    if (filter.values.includes(null)) parts.push(`${column} IS NULL`);
    conditions.push(`(${parts.join(' OR ')})`);
  }
  const groups = (grouped ? query.groupBy : []).map(
    (label, i) => `${aggregationLabelSql(dialect, source, label, params)} AS g${i}`,
  );
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
