// Holds a run's surface coverage to `m3.surfaceThreshold` (contract §25): one failed gate per
// missed (server, measure), whose message lists what is uncovered, so the verdict, the exit status
// (1), the saved run problems and feedback.json all say what no test touched.
import { checkSurfaceThresholds } from '@sf-m3/core/internal';
import type { RunSurfaceCoverage, SurfaceMeasure, SurfaceThresholdMiss } from '@sf-m3/core';
import type { GateSettings } from '../gates/GateSettings';
import type { GateResult } from '../summary/RunSummary';

/** Uncovered items a gate message names before `… and N more` (the gate's `surface.uncovered` has them all). */
export const MAX_LISTED_UNCOVERED = 20;

/** What each measure's uncovered items are, as the message says it. */
const UNCOVERED_LABEL: Readonly<Record<SurfaceMeasure, string>> = {
  tools: 'never called',
  toolsSucceeded: 'never succeeded',
  properties: 'properties never sent',
  enums: 'enum values never sent',
  prompts: 'prompts never fetched',
  resources: 'resources never read',
};

const shownPercent = (value: number): string => `${Number(value.toFixed(1))}%`;

function listed(items: readonly string[]): string {
  const shown = items.slice(0, MAX_LISTED_UNCOVERED).join(', ');
  return items.length > MAX_LISTED_UNCOVERED ? `${shown} … and ${items.length - MAX_LISTED_UNCOVERED} more` : shown;
}

function missMessage(miss: SurfaceThresholdMiss, coverage: RunSurfaceCoverage): string {
  const held = `surface ${miss.server} ${miss.measure} ≥ ${shownPercent(miss.required)}`;
  if (miss.actual === null) {
    return `${held}: no execution of this run reached server ${miss.server} (check the name in surfaceThreshold)`;
  }
  const count = coverage.servers.find((s) => s.server === miss.server)?.measures[miss.measure];
  const counts = count === undefined ? '' : ` (${count.covered}/${count.total})`;
  const uncovered = miss.uncovered.length > 0 ? ` — ${UNCOVERED_LABEL[miss.measure]}: ${listed(miss.uncovered)}` : '';
  return `${held}: ${shownPercent(miss.actual)}${counts}${uncovered}`;
}

/** The gates `m3.surfaceThreshold` sets for this run: its misses, or one passing row; none without a threshold. */
export function surfaceThresholdGates(
  setting: GateSettings['surfaceThreshold'],
  coverage: RunSurfaceCoverage | null,
): GateResult[] {
  if (setting == null) return [];
  const run = coverage ?? { runId: '', servers: [] };
  const misses = checkSurfaceThresholds(run, setting.value);
  if (misses.length === 0) {
    return [
      {
        kind: 'surface_threshold',
        evaluator: null,
        threshold: null,
        actual: null,
        gap: 0,
        regressions: null,
        source: setting.source,
        passed: true,
        message: `surface thresholds: every server meets them (${run.servers.length} server(s))`,
      },
    ];
  }
  return misses.map((miss) => ({
    kind: 'surface_threshold' as const,
    evaluator: null,
    threshold: miss.required,
    actual: miss.actual,
    gap: miss.actual === null ? null : miss.required - miss.actual,
    regressions: null,
    source: setting.source,
    passed: false,
    message: missMessage(miss, run),
    surface: { server: miss.server, measure: miss.measure, uncovered: [...miss.uncovered] },
  }));
}
