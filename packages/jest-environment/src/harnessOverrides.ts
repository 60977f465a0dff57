import { ModelValidationError } from '@sf-m3/core/internal';

/**
 * Applies the CLI's `--harness KIND=MODEL[,MODEL]` selections to a suite's `describe.m3` agents
 * (upstream behaviour): the CLI's models replace the suite's, but a suite entry of the same kind
 * contributes its other fields (an acp `manifest`, an openai `baseUrl`/`auth`, a `name`...).
 *
 * - A CLI kind with one suite entry of that kind: that entry with the CLI's `models`.
 * - A CLI kind with no such entry: `openai` runs with its defaults; `acp` cannot (it needs a
 *   manifest), so that is an error naming the fix; other kinds pass through as given.
 * - A CLI kind with several suite entries of that kind: an error (which entry's fields to keep is
 *   ambiguous).
 * Suite entries of kinds the CLI did not name are dropped: the CLI's selection replaces the list.
 */
export function applyHarnessOverrides(
  cli: readonly unknown[],
  suiteAgents: readonly unknown[],
  suiteName: string | null,
): Record<string, unknown>[] {
  const where = suiteName === null ? 'this suite' : `describe.m3('${suiteName}')`;
  return cli.map((selection) => {
    const record = selection as Record<string, unknown> | null;
    if (typeof record !== 'object' || record === null || typeof record.harness !== 'string') {
      throw new ModelValidationError(
        'M3_HARNESS must be a JSON list of { harness, models } selections (set by m3 test --harness)',
      );
    }
    const kind = record.harness;
    const models = Array.isArray(record.models) ? record.models.map(String) : [];
    const flag = `--harness ${kind}=${models.join(',') || '...'}`;
    const sameKind = suiteAgents.filter(
      (entry): entry is Record<string, unknown> =>
        typeof entry === 'object' && entry !== null && (entry as { harness?: unknown }).harness === kind,
    );
    if (sameKind.length > 1) {
      throw new ModelValidationError(
        `${flag}: ${where} has ${sameKind.length} agents entries of kind '${kind}', so the one whose ` +
          `settings the command line's models should use is ambiguous; keep one '${kind}' entry, or run ` +
          'without --harness',
        { harness: kind, entries: sameKind.length },
      );
    }
    const [entry] = sameKind;
    if (entry === undefined) {
      if (kind === 'acp') {
        throw new ModelValidationError(
          `${flag} needs a describe.m3 agents entry with a manifest: add ` +
            "agents: [{ harness: 'acp', manifest: { command, args }, models: ['...'] }] to " +
            `${where} (the command line only picks the models)`,
          { harness: kind },
        );
      }
      return { harness: kind, models };
    }
    const merged: Record<string, unknown> = { ...entry, models };
    delete merged.model;
    return merged;
  });
}
