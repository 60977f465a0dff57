import type { CassetteFileReport } from '@sf-m3/core/internal';
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

/** What a test file's cassette did (contract §24): one home, in `@sf-m3/core`. */
export type { CassetteFileReport };

/** One report a worker leaves for global teardown. */
export type RunReport = RequiredFailureReport | RunProblemReport | CassetteFileReport;

/** True for the reports that fail the run (a required failure, a file that did not run, lost results). */
export function isRunProblemReport(report: RunReport): report is RequiredFailureReport | RunProblemReport {
  return report.kind !== 'cassette_file';
}

/** A test file a worker started and has not finished yet (its marker is removed at the file's teardown). */
export interface RunningFile {
  readonly testPath: string;
  /** The worker process running it. */
  readonly pid: number;
}

const RUNNING_SUFFIX = '.running';

/**
 * A run-scoped temporary folder: workers drop one small JSON file per report, global teardown
 * reads them all. It carries required failures to the end of the run even when nothing is
 * persisted (Jest gives global teardown no other channel from the workers).
 */
export class RunStateDir {
  constructor(readonly dir: string) {}

  /**
   * Creates a fresh folder under `root` when it is an existing folder (the `m3` CLI passes one it
   * removes after Jest, however Jest ends), else under the OS temp directory.
   */
  static create(root?: string | null): RunStateDir {
    const parent = root !== undefined && root !== null && isDirectory(root) ? root : os.tmpdir();
    return new RunStateDir(fs.mkdtempSync(path.join(parent, 'sf-m3-run-')));
  }

  /**
   * Marks `testPath` as running in this process; the returned function clears the mark. A mark
   * still there when the run ends means the file's worker died before the file ended.
   */
  startFile(testPath: string): () => void {
    const file = path.join(this.dir, `file-${randomBytes(8).toString('hex')}${RUNNING_SUFFIX}`);
    const running: RunningFile = { testPath, pid: process.pid };
    writeAtomically(file, JSON.stringify(running));
    return () => fs.rmSync(file, { force: true });
  }

  /** Files marked running and never cleared; a missing folder reads as none. */
  unfinishedFiles(): RunningFile[] {
    return this.readAll(RUNNING_SUFFIX) as RunningFile[];
  }

  /** Writes one report atomically (temp file + rename), so a reader never sees half a file. */
  write(report: RunReport): void {
    const name = `${report.kind}-${randomBytes(8).toString('hex')}`;
    writeAtomically(path.join(this.dir, `${name}.json`), JSON.stringify(report));
  }

  /** Every report written so far; a missing folder reads as none. */
  read(): RunReport[] {
    return this.readAll('.json') as RunReport[];
  }

  /** Removes the folder and everything in it. */
  remove(): void {
    fs.rmSync(this.dir, { recursive: true, force: true });
  }

  private readAll(suffix: string): unknown[] {
    let names: string[];
    try {
      names = fs.readdirSync(this.dir);
    } catch {
      return [];
    }
    const items: unknown[] = [];
    for (const name of names.filter((n) => n.endsWith(suffix) && !n.startsWith('.')).sort()) {
      try {
        items.push(JSON.parse(fs.readFileSync(path.join(this.dir, name), 'utf8')));
      } catch {
        // a file that cannot be read is ignored rather than failing teardown on it
      }
    }
    return items;
  }
}

/** Temp file + rename, so a reader never sees half a file. */
function writeAtomically(file: string, text: string): void {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.tmp`);
  fs.writeFileSync(tmp, text);
  fs.renameSync(tmp, file);
}

function isDirectory(folder: string): boolean {
  try {
    return fs.statSync(folder).isDirectory();
  } catch {
    return false;
  }
}
