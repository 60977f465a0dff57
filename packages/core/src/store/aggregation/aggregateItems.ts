import type { EvaluationStatus } from '../../enums';
import type { AggregationReport } from '../AggregationQuery';
import { labelValue, type AggregationItem } from './AggregationItem';
import { buildAggregateValues, compareGroupKeys, type AggregateCounts } from './aggregateValues';
import type { NormalizedAggregationQuery } from './validateAggregationQuery';

/** Mutable tally of one group. */
class GroupTally {
  evaluationCount = 0;
  statusCounts: Partial<Record<EvaluationStatus, number>> = {};
  missing = 0;
  pending = 0;
  scoreSum = 0;
  scoreCount = 0;
  readonly executions = new Set<string>();
  readonly cases = new Set<string>();
  /** case -> trial (execution) -> every expected item of that trial passed. */
  readonly trials = new Map<string, Map<string, boolean>>();

  add(item: AggregationItem): void {
    if (item.executionId !== null) this.executions.add(item.executionId);
    if (item.caseId !== null) this.cases.add(item.caseId);
    if (item.kind === 'pending') {
      this.pending += 1;
      return;
    }
    if (item.kind === 'missing') {
      this.missing += 1;
    } else {
      this.evaluationCount += 1;
      const status = item.status!;
      this.statusCounts[status] = (this.statusCounts[status] ?? 0) + 1;
      if (item.score !== null) {
        this.scoreSum += item.score;
        this.scoreCount += 1;
      }
    }
    if (item.caseId !== null) {
      let trials = this.trials.get(item.caseId);
      if (trials === undefined) this.trials.set(item.caseId, (trials = new Map()));
      const trial = item.executionId ?? '';
      const passed = item.kind === 'row' && item.status === 'passed';
      trials.set(trial, (trials.get(trial) ?? true) && passed);
    }
  }

  counts(): AggregateCounts {
    let all = 0;
    let any = 0;
    for (const trials of this.trials.values()) {
      const verdicts = [...trials.values()];
      if (verdicts.every(Boolean)) all += 1;
      if (verdicts.some(Boolean)) any += 1;
    }
    return {
      evaluationCount: this.evaluationCount,
      statusCounts: this.statusCounts,
      missingRequiredCount: this.missing,
      pendingRequiredCount: this.pending,
      scoreSum: this.scoreSum,
      scoreCount: this.scoreCount,
      executionCount: this.executions.size,
      caseCount: this.cases.size,
      casesAllPassed: all,
      casesAnyPassed: any,
    };
  }
}

/** True when `item` passes the query's time window and label filters. */
export function itemMatches(query: NormalizedAggregationQuery, item: AggregationItem): boolean {
  if (query.statusScoped && item.kind !== 'row') return false;
  if (query.from !== null && item.executionCreatedAt < query.from) return false;
  if (query.to !== null && item.executionCreatedAt >= query.to) return false;
  return query.filters.every((f) => f.values.includes(labelValue(item, f.label)));
}

/**
 * The pure aggregation engine (contract §10) over already-reduced items: latest lineage rows plus
 * synthetic required items. Filters, groups, and counts; the in-memory store uses it directly and
 * the SQLite store computes the same numbers in SQL.
 */
export function aggregateItems(query: NormalizedAggregationQuery, items: Iterable<AggregationItem>): AggregationReport {
  const totals = new GroupTally();
  const groups = new Map<string, { key: (string | null)[]; tally: GroupTally }>();
  for (const item of items) {
    if (!itemMatches(query, item)) continue;
    totals.add(item);
    if (query.groupBy.length === 0) continue;
    const key = query.groupBy.map((label) => labelValue(item, label));
    const id = JSON.stringify(key);
    let group = groups.get(id);
    if (group === undefined) groups.set(id, (group = { key, tally: new GroupTally() }));
    group.tally.add(item);
  }
  const sorted = [...groups.values()].sort((a, b) => compareGroupKeys(a.key, b.key));
  return {
    totals: buildAggregateValues(totals.counts()),
    groups: sorted.map(({ key, tally }) => ({
      key: Object.fromEntries(query.groupBy.map((label, i) => [label, key[i] ?? null])),
      values: buildAggregateValues(tally.counts()),
    })),
  };
}
