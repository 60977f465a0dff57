// `m3 merge OUT IN...`: merges SQLite results databases written by shards into OUT (contract §20).
import { isAbsolute, resolve } from 'node:path';
import { cliRedactor, type CliIO } from '../CliIO';
import { UsageError } from '../options/UsageError';
import { formatMergeReport } from '../retention/formatMergeReport';

/** Arguments of `m3 merge`, as typed. */
export interface MergeCommandInput {
  out: string;
  inputs: string[];
  json?: boolean;
}

function filePath(flag: string, value: string, cwd: string): string {
  if (value.trim() === '') throw new UsageError(flag, 'must be a file path, not empty');
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) {
    throw new UsageError(flag, `m3 merge merges SQLite files, not ${value.split(':')[0]} databases`);
  }
  return isAbsolute(value) ? value : resolve(cwd, value);
}

/** Runs `m3 merge`; returns the exit status (0, or 2 for a usage or store problem). */
export async function runMergeCommand(input: MergeCommandInput, io: CliIO): Promise<number> {
  const out = filePath('OUT', input.out, io.cwd);
  const inputs = input.inputs.map((value) => filePath('IN', value, io.cwd));
  if (inputs.length === 0) throw new UsageError('IN', 'name at least one results database to merge into OUT');
  // Loaded on demand: `m3 --help` and usage errors never load the native sqlite3 module.
  const { mergeResultsDatabases } = require('@sf-m3/store-sqlite') as typeof import('@sf-m3/store-sqlite');
  const redactor = cliRedactor(io.env);
  const report = await mergeResultsDatabases(out, inputs, {
    onNotice: (line) => io.stderr(`${redactor.redactText(line)}\n`),
  });
  if (input.json === true) io.stdout(`${JSON.stringify(redactor.redactJson({ ...report }), null, 2)}\n`);
  else io.stdout(redactor.redactText(formatMergeReport(report, io.cwd)));
  return 0;
}
