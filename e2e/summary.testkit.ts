// Reads the `evaluations` table of a printed m3 summary, for the summary e2e test.

/** One printed evaluator row: its pass rate text (`66.7%`) and `passed/expected` counts. */
export interface PrintedRate {
  rate: string;
  counts: string;
}

/** The rows of the summary's `evaluations` table, by evaluator name (throws when there is no table). */
export function printedEvaluatorRates(summary: string): Map<string, PrintedRate> {
  const lines = summary.split('\n');
  const start = lines.indexOf('evaluations');
  if (start === -1) throw new Error(`no evaluations table in:\n${summary}`);
  const rows = new Map<string, PrintedRate>();
  for (const line of lines.slice(start + 1)) {
    if (!line.startsWith('  ')) break;
    const match = /^ {2}(\S+)\s+(\S+%|n\/a)\s+(?:\[\S+\]\s+)?(\d+\/\d+)$/.exec(line);
    if (!match) throw new Error(`unexpected evaluations row: ${line}`);
    rows.set(match[1]!, { rate: match[2]!, counts: match[3]! });
  }
  return rows;
}
