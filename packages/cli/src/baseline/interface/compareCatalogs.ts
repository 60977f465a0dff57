// Interface changes between two runs: for every (suite, server) whose `tools/list` both runs saw,
// the tools added and removed and, for tools in both, the JSON paths where their definitions
// differ. A (suite, server) seen in one run only is "not comparable", never a list of removals.
import type { JsonObject } from '@sf-m3/core';
import type { InterfaceChanges, ToolChange, UncomparableCatalog } from '../../summary/RunSummary';
import type { ToolCatalog, ToolCatalogs } from './collectToolCatalogs';
import { definitionDifferences } from './definitionDifferences';

function canonical(tool: JsonObject): string {
  // Key order does not matter to a JSON Schema: compare sorted-key serializations.
  const sort = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(sort)
      : typeof value === 'object' && value !== null
        ? Object.fromEntries(
            Object.keys(value)
              .sort()
              .map((k) => [k, sort((value as Record<string, unknown>)[k])]),
          )
        : value;
  const { name: _name, ...rest } = tool;
  return JSON.stringify(sort(rest));
}

function compareOne(before: ToolCatalog, after: ToolCatalog): ToolChange[] {
  const base = { suiteName: after.suiteName, server: after.server };
  const removed = [...before.tools.keys()].filter((name) => !after.tools.has(name));
  const added = [...after.tools.keys()].filter((name) => !before.tools.has(name));
  const changes: ToolChange[] = [];
  const renameOf = (tool: JsonObject, candidates: string[], from: ToolCatalog): string | null =>
    candidates.find((name) => canonical(from.tools.get(name)!) === canonical(tool)) ?? null;
  for (const tool of removed) {
    const renamed = renameOf(before.tools.get(tool)!, added, after);
    changes.push({ ...base, tool, change: 'removed', fields: [], differences: [], renamed });
  }
  for (const tool of added) {
    const renamed = renameOf(after.tools.get(tool)!, removed, before);
    changes.push({ ...base, tool, change: 'added', fields: [], differences: [], renamed });
  }
  for (const [tool, definition] of after.tools) {
    const previous = before.tools.get(tool);
    if (previous === undefined) continue;
    const differences = definitionDifferences(previous, definition);
    if (differences.length === 0) continue;
    const fields = [...new Set(differences.map((d) => /^\$\.?([^.[]*)/.exec(d.path)?.[1] ?? d.path))];
    changes.push({ ...base, tool, change: 'changed', fields, differences, renamed: null });
  }
  return changes;
}

const order = { removed: 0, added: 1, changed: 2 } as const;

/** Compares the catalogs of a baseline run with the current run's. */
export function compareCatalogs(baseline: ToolCatalogs, current: ToolCatalogs): InterfaceChanges {
  const changes: ToolChange[] = [];
  const notComparable: UncomparableCatalog[] = [];
  let compared = 0;
  for (const [key, after] of current) {
    const before = baseline.get(key);
    if (before === undefined) {
      notComparable.push({ suiteName: after.suiteName, server: after.server, seenIn: 'current' });
      continue;
    }
    compared += 1;
    changes.push(...compareOne(before, after));
  }
  for (const [key, before] of baseline) {
    if (!current.has(key))
      notComparable.push({ suiteName: before.suiteName, server: before.server, seenIn: 'baseline' });
  }
  const where = (x: { suiteName: string | null; server: string }) => `${x.suiteName ?? ''}\u0000${x.server}`;
  changes.sort(
    (a, b) => where(a).localeCompare(where(b)) || order[a.change] - order[b.change] || a.tool.localeCompare(b.tool),
  );
  notComparable.sort((a, b) => where(a).localeCompare(where(b)));
  return { compared, changes, notComparable };
}
