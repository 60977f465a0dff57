import type { HarnessContext } from '../HarnessDriver';
import type { AgentProcess } from '../process/AgentProcess';
import { TurnWireSync } from './TurnWireSync';

/** A context with no servers: the group's `sync` is replaced, so only the scope reaches it. */
function context(): HarnessContext {
  return {
    sessionId: 'ses-1',
    options: { servers: [], policies: new Map() },
  } as unknown as HarnessContext;
}

/** A wire sync whose group's reads are counted and held open until released. */
function heldSync(): { wire: TurnWireSync; reads: () => number; release: () => void } {
  const wire = new TurnWireSync(context());
  let reads = 0;
  let release = (): void => undefined;
  jest.spyOn(wire.group, 'sync').mockImplementation(() => {
    reads += 1;
    return new Promise<void>((resolve) => (release = resolve));
  });
  return { wire, reads: () => reads, release: () => release() };
}

const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

describe('TurnWireSync', () => {
  it('serializes reads: calls while one runs queue exactly one more', async () => {
    const { wire, reads, release } = heldSync();
    wire.sync();
    await tick();
    wire.sync();
    wire.sync();
    wire.sync();
    expect(reads()).toBe(1);
    release();
    await tick();
    expect(reads()).toBe(2);
    release();
    await tick();
    expect(reads()).toBe(2);
  });

  it('settles every read asked for before it resolves', async () => {
    const { wire, reads, release } = heldSync();
    let settled = false;
    void wire.settle().then(() => (settled = true));
    await tick();
    expect([reads(), settled]).toEqual([1, false]);
    release();
    await tick();
    expect(settled).toBe(true);
  });

  it('attributes evidence to the turn begun last, reads on a timer only during a turn, notes descendants each second', async () => {
    jest.useFakeTimers();
    try {
      const wire = new TurnWireSync(context());
      const scopes: unknown[] = [];
      const scope = (wire.group as unknown as { options: { scope: () => unknown } }).options.scope;
      const read = jest.spyOn(wire.group, 'sync').mockImplementation(async () => void scopes.push(scope()));
      const remember = jest.fn();
      const proc = { rememberDescendants: remember } as unknown as AgentProcess;
      await wire.settle();
      await wire.beginTurn('turn-1', () => proc);
      const before = read.mock.calls.length;
      await jest.advanceTimersByTimeAsync(350);
      expect(read.mock.calls.length - before).toBe(3);
      // Descendants are noted at the first tick and then once a second: each note reads /proc whole.
      expect(remember).toHaveBeenCalledTimes(1);
      await jest.advanceTimersByTimeAsync(750);
      expect(read.mock.calls.length - before).toBe(11);
      expect(remember).toHaveBeenCalledTimes(2);
      await wire.endTurn();
      const ended = read.mock.calls.length;
      await jest.advanceTimersByTimeAsync(500);
      expect(read.mock.calls.length).toBe(ended);
      expect(scopes[0]).toEqual({ sessionId: 'ses-1' });
      expect(scopes.at(-1)).toEqual({ sessionId: 'ses-1', turnId: 'turn-1' });
    } finally {
      jest.useRealTimers();
    }
  });
});
