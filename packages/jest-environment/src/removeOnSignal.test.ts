import * as fs from 'node:fs';
import { removeOnSignal } from './removeOnSignal';
import { RunStateDir } from './RunStateDir';

describe('removeOnSignal', () => {
  test('a signal that ends Jest removes the run-state folder; release stops listening', () => {
    // Another listener keeps this (test) process alive: with none left the signal is raised again.
    const keepAlive = (): void => undefined;
    process.on('SIGTERM', keepAlive);
    try {
      const state = RunStateDir.create();
      const before = process.listenerCount('SIGTERM');
      removeOnSignal(state);
      expect(process.listenerCount('SIGTERM')).toBe(before + 1);
      process.emit('SIGTERM');
      expect(fs.existsSync(state.dir)).toBe(false);
      expect(process.listenerCount('SIGTERM')).toBe(before);

      const kept = RunStateDir.create();
      removeOnSignal(kept)();
      process.emit('SIGTERM');
      expect(fs.existsSync(kept.dir)).toBe(true);
      kept.remove();
    } finally {
      process.off('SIGTERM', keepAlive);
    }
  });
});
