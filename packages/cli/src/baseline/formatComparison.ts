// The `baseline` lines of the printed summary: test changes, pass-rate changes with their counts,
// p-values and significance, and the interface changes between the two runs' tool catalogs.
import type {
  BaselineComparison,
  DefinitionDifference,
  EvaluatorDelta,
  InterfaceChanges,
  ToolChange,
} from '../summary/RunSummary';
import { isChange, isDrop } from './compareRates';

/** Rate and interface rows printed before the rest are left to `--json` and feedback.json. */
export const MAX_PRINTED_COMPARISON_ROWS = 30;

const rate = (r: number | null): string => (r === null ? 'n/a' : `${(r * 100).toFixed(1)}%`);

function delta(d: number | null): string {
  if (d === null) return 'n/a';
  const points = d * 100;
  return `${points >= 0 ? '+' : '−'}${Math.abs(points).toFixed(1)} pts`;
}

/** `0.0108`, `4.5e-5`, `1`. */
export function formatPValue(p: number | null): string {
  if (p === null) return 'n/a';
  if (p >= 0.9999) return '1';
  return p >= 0.001 ? p.toFixed(4) : p.toExponential(1);
}

function groupLabel(row: EvaluatorDelta): string {
  switch (row.scope) {
    case 'suite':
      return ` [suite ${row.suiteName ?? '(none)'}]`;
    case 'case':
      return ` [case ${row.caseId ?? '(none)'}]`;
    case 'harness':
      return ` [harness ${row.harness ?? '(none)'}]`;
    case 'model':
      return ` [model ${row.harness ?? '(none)'}:${row.model ?? '(none)'}]`;
    default:
      return '';
  }
}

function side(counts: EvaluatorDelta['baseline']): string {
  return counts === null ? 'n/a' : `${rate(counts.passRate)} (${counts.passed}/${counts.expected})`;
}

function rateLine(row: EvaluatorDelta): string {
  const arrow = isDrop(row) ? '↓' : '↑';
  return (
    `  ${arrow} ${row.evaluator}${groupLabel(row)}  ${side(row.baseline)} → ${side(row.current)}  ` +
    `${delta(row.delta)}  p=${formatPValue(row.pValue)}  ${row.significance}`
  );
}

/** `"number" → "string"` for short values, else the kind of change. */
function differenceText(d: DefinitionDifference): string {
  const short = (v: unknown): string | null => {
    const text = JSON.stringify(v);
    return text !== undefined && text.length <= 40 ? text : null;
  };
  if (d.change === 'changed') {
    const [before, after] = [short(d.before), short(d.after)];
    return before !== null && after !== null ? `${before} → ${after}` : 'changed';
  }
  const value = short(d.change === 'added' ? d.after : d.before);
  return value === null ? d.change : `${d.change} ${value}`;
}

function toolLine(change: ToolChange): string {
  const where = `${change.suiteName ?? '(no suite)'}/${change.server}`;
  if (change.change === 'removed') {
    return `    − ${where} ${change.tool} removed${change.renamed ? ` (renamed to ${change.renamed}?)` : ''}`;
  }
  if (change.change === 'added') {
    return `    + ${where} ${change.tool} added${change.renamed ? ` (renamed from ${change.renamed}?)` : ''}`;
  }
  const paths = change.differences.map((d) => `${d.path} ${differenceText(d)}`);
  const shown = paths.slice(0, 4).join(', ') + (paths.length > 4 ? `, … ${paths.length - 4} more` : '');
  return `    ~ ${where} ${change.tool} ${change.fields.join(', ')} changed: ${shown}`;
}

function interfaceLines(changes: InterfaceChanges): string[] {
  const lines = [
    `  interface  ${changes.compared} tool catalog(s) compared: ${changes.changes.length} change(s)` +
      (changes.notComparable.length > 0 ? `, ${changes.notComparable.length} not comparable` : ''),
  ];
  const shown = changes.changes.slice(0, MAX_PRINTED_COMPARISON_ROWS);
  lines.push(...shown.map(toolLine));
  if (changes.changes.length > shown.length) {
    lines.push(`    … ${changes.changes.length - shown.length} more interface change(s) in feedback.json (or --json)`);
  }
  for (const c of changes.notComparable) {
    lines.push(
      `    ? ${c.suiteName ?? '(no suite)'}/${c.server} listed tools in the ${c.seenIn} run only: not comparable`,
    );
  }
  return lines;
}

/** The lines of a baseline comparison. */
export function formatComparison(b: BaselineComparison): string[] {
  const lines = [
    `baseline    ${b.baselineRunId}: ${b.regressedTests.length} regressed, ${b.fixedTests.length} fixed, ` +
      `${b.newTests} new, ${b.removedTests} removed`,
  ];
  for (const test of b.regressedTests) lines.push(`  ✕ ${test.key}  passed → failed`);
  for (const test of b.fixedTests) lines.push(`  ✓ ${test.key}  failed → passed`);
  const rows = [...b.evaluators.filter(isChange), ...b.groups];
  lines.push(
    `  pass rates (Fisher exact, alpha ${b.alpha}): ${b.regressions.length} significant drop(s), ` +
      `${b.dropsWithinNoise} drop(s) within noise`,
  );
  const shown = rows.slice(0, MAX_PRINTED_COMPARISON_ROWS);
  lines.push(...shown.map(rateLine));
  if (rows.length > shown.length) {
    lines.push(`  … ${rows.length - shown.length} more pass-rate change(s) in feedback.json (or --json)`);
  }
  lines.push(...interfaceLines(b.interfaceChanges));
  return lines;
}
