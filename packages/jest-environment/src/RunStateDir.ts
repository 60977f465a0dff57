import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** A required evaluation that did not pass, reported by the worker that saw it. */
export interface RequiredFailureReport {
  readonly kind: 'required_failure';
  readonly evaluationId: string;
  readonly evaluator: string;
  readonly status: string;
  /** Redacted by the kit. */
  readonly rationale: string | null;
  readonly testPath: string;
  readonly fullName: string;
}

/** Something outside any test failed the run: a file that could not run, or results that could not be saved. */
export interface RunProblemReport {
  readonly kind: 'file_error' | 'persistence_error';
  readonly testPath: string;
  /** Redacted and bounded. */
  readonly message: string;
}

/** One report a worker leaves for global teardown. */
export type RunReport = RequiredFailureReport | RunProblemReport;

/**
 * A run-scoped temporary folder: workers drop one small JSON file per report, global teardown
 * reads them all. It carries required failures to the end of the run even when nothing is
 * persisted (Jest gives global teardown no other channel from the workers).
 */
export class RunStateDir {
  constructor(readonly dir: string) {}

  /** Creates a fresh folder under the OS temp directory. */
  static create(): RunStateDir {
    return new RunStateDir(fs.mkdtempSync(path.join(os.tmpdir(), 'sf-m3-run-')));
  }

  /** Writes one report atomically (temp file + rename), so a reader never sees half a file. */
  write(report: RunReport): void {
    const name = `${report.kind}-${randomBytes(8).toString('hex')}`;
    const tmp = path.join(this.dir, `.${name}.tmp`);
    fs.writeFileSync(tmp, JSON.stringify(report));
    fs.renameSync(tmp, path.join(this.dir, `${name}.json`));
  }

  /** Every report written so far; a missing folder reads as none. */
  read(): RunReport[] {
    let names: string[];
    try {
      names = fs.readdirSync(this.dir);
    } catch {
      return [];
    }
    const reports: RunReport[] = [];
    for (const name of names.filter((n) => n.endsWith('.json')).sort()) {
      try {
        reports.push(JSON.parse(fs.readFileSync(path.join(this.dir, name), 'utf8')) as RunReport);
      } catch {
        // a report that cannot be read is ignored rather than failing teardown on it
      }
    }
    return reports;
  }

  /** Removes the folder and everything in it. */
  remove(): void {
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
