import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { removeWorkerTempDirs, workerTempDir } from './workerTempDir';

/** Signal listeners of the test runner itself (none of ours yet): set aside while a signal is emitted. */
const foreign = {
  SIGTERM: process.listeners('SIGTERM'),
  SIGINT: process.listeners('SIGINT'),
} as Record<'SIGTERM' | 'SIGINT', Array<(...args: unknown[]) => void>>;

function emitAlone(signal: 'SIGTERM' | 'SIGINT'): void {
  for (const listener of foreign[signal]) process.off(signal, listener);
  try {
    process.emit(signal, signal);
  } finally {
    for (const listener of foreign[signal]) process.on(signal, listener);
  }
}

describe('workerTempDir', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'm3-worker-tmp-test-'));
  });
  afterEach(() => {
    jest.restoreAllMocks();
    rmSync(root, { recursive: true, force: true });
  });

  /** A worker folder holding what a kit cut short would leave (a capture file). */
  function leftover(env: NodeJS.ProcessEnv): string {
    const folder = workerTempDir(env);
    mkdirSync(join(folder, 'sf-m3-wire-x'), { recursive: true });
    writeFileSync(join(folder, 'sf-m3-wire-x', 'capture.jsonl'), '{"raw":"frame"}\n');
    return folder;
  }

  test('lives in the run-state folder when there is one, else in M3_TEMP_DIR or the OS temp folder', () => {
    expect(dirname(workerTempDir({ M3_RUN_STATE_DIR: root }))).toBe(root);
    expect(dirname(workerTempDir({ M3_TEMP_DIR: join(root, 'named') }))).toBe(join(root, 'named'));
    expect(dirname(workerTempDir({ M3_RUN_STATE_DIR: join(root, 'gone') }))).toBe(tmpdir());
    expect(workerTempDir({ M3_RUN_STATE_DIR: root })).toBe(workerTempDir({ M3_RUN_STATE_DIR: root }));
  });

  test('a signal removes it, then the signal is re-raised so the process still dies of it', () => {
    const folder = leftover({ M3_RUN_STATE_DIR: root });
    const kill = jest.spyOn(process, 'kill').mockImplementation(() => true);
    emitAlone('SIGTERM');
    expect(existsSync(folder)).toBe(false);
    expect(kill).toHaveBeenCalledWith(process.pid, 'SIGTERM');
    expect(process.listenerCount('SIGTERM')).toBe(foreign.SIGTERM.length);
  });

  test('another listener of the signal decides what happens next: nothing is re-raised', () => {
    const folder = leftover({ M3_RUN_STATE_DIR: root });
    const kill = jest.spyOn(process, 'kill').mockImplementation(() => true);
    const other = (): void => undefined;
    process.on('SIGINT', other);
    try {
      emitAlone('SIGINT');
    } finally {
      process.off('SIGINT', other);
    }
    expect(existsSync(folder)).toBe(false);
    expect(kill).not.toHaveBeenCalled();
  });

  test('process exit removes it', () => {
    const folder = leftover({ M3_RUN_STATE_DIR: root });
    expect(process.listeners('exit')).toContain(removeWorkerTempDirs);
    removeWorkerTempDirs();
    expect(existsSync(folder)).toBe(false);
  });
});
