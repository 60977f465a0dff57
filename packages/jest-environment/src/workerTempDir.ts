// The folder a worker's kits make their temporary folders under (capture files, proxy configs,
// agent homes; `M3_TEMP_DIR` in each test file's sandbox). Kits remove their own folders when
// they close; a test file cut short by a signal or `process.exit` never gets there, so the worker
// removes this whole folder when its process ends. Handlers registered inside the sandbox would
// sit on Jest's copy of `process`, which Node never signals, so this lives in the outer realm.
import { randomBytes } from 'node:crypto';
import { rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { TEMP_DIR_ENV } from '@sf-m3/core/internal';
import { RUN_STATE_DIR_ENV } from './runContext';

/** Signals after which the worker's temporary folders are removed before the process dies. */
const CLEANUP_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

const folders = new Map<string, string>();
let exitHooked = false;
let signalsHooked = false;

function isDirectory(path: string | undefined): path is string {
  if (path === undefined || path === '' || !isAbsolute(path)) return false;
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Removes every folder handed out; never throws (the process is ending). */
export function removeWorkerTempDirs(): void {
  for (const folder of folders.values()) {
    try {
      rmSync(folder, { recursive: true, force: true });
    } catch {
      // Nothing more can be done while the process ends.
    }
  }
}

/**
 * Removes the folders, then lets the signal do what it would have done: when no other listener
 * handles it, the handlers are dropped and the signal re-raised, so the process still dies of it
 * (exit status and `m3 test`'s 128 + n stay the same).
 */
function onSignal(signal: NodeJS.Signals): void {
  removeWorkerTempDirs();
  for (const name of CLEANUP_SIGNALS) process.removeListener(name, onSignal);
  signalsHooked = false;
  if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
}

function install(): void {
  if (!exitHooked) {
    exitHooked = true;
    process.on('exit', removeWorkerTempDirs);
  }
  if (!signalsHooked) {
    signalsHooked = true;
    for (const name of CLEANUP_SIGNALS) process.on(name, onSignal);
  }
}

/**
 * The (not yet created) folder this worker's kits put temporary folders under: inside
 * `M3_TEMP_DIR` when the run names one, else inside the run-state folder (removed with the run),
 * else in the OS temp folder. One per worker process and parent; removed on exit and signals.
 */
export function workerTempDir(env: NodeJS.ProcessEnv = process.env): string {
  const named = env[TEMP_DIR_ENV];
  const runState = env[RUN_STATE_DIR_ENV];
  const parent = named !== undefined && isAbsolute(named) ? named : isDirectory(runState) ? runState : tmpdir();
  let folder = folders.get(parent);
  if (folder === undefined) {
    folder = join(parent, `sf-m3-tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
    folders.set(parent, folder);
  }
  install();
  return folder;
}
