import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runTempRoot } from './runTempRoot';

describe('runTempRoot', () => {
  test("is the run's state folder while it exists, else the OS temp directory", () => {
    const state = mkdtempSync(join(tmpdir(), 'm3-run-temp-'));
    try {
      expect(runTempRoot({ M3_RUN_STATE_DIR: state })).toBe(state);
      expect(runTempRoot({})).toBe(tmpdir());
      expect(runTempRoot({ M3_RUN_STATE_DIR: join(state, 'gone') })).toBe(tmpdir());
    } finally {
      rmSync(state, { recursive: true, force: true });
    }
  });
});
