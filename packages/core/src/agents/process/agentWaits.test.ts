import type { AgentExit, AgentProcess } from './AgentProcess';
import { abortRejection, describeExit, endAgentProcess, exitWithin } from './agentWaits';

const procExiting = (exited: Promise<AgentExit>): AgentProcess => ({ exited }) as unknown as AgentProcess;

describe('agentWaits', () => {
  it('describes an exit by its spawn error, else its signal, else its code', () => {
    expect(describeExit({ code: null, signal: null, spawnError: 'ENOENT' })).toBe('ENOENT');
    expect(describeExit({ code: null, signal: 'SIGTERM' })).toBe('signal SIGTERM');
    expect(describeExit({ code: 3, signal: null })).toBe('exit code 3');
  });

  it('gives the exit that comes within the bound, else undefined', async () => {
    const exit = { code: 0, signal: null };
    await expect(exitWithin(procExiting(Promise.resolve(exit)), 1000)).resolves.toBe(exit);
    await expect(exitWithin(procExiting(new Promise<AgentExit>(() => undefined)), 5)).resolves.toBeUndefined();
  });

  it('rejects with the reason once the signal aborts, at once when it already has', async () => {
    const controller = new AbortController();
    const later = abortRejection(controller.signal);
    controller.abort(new Error('deadline'));
    await expect(later.aborted).rejects.toThrow('deadline');
    const already = abortRejection(controller.signal);
    await expect(already.aborted).rejects.toThrow('deadline');
  });

  it('stays pending once disposed, and an unraced rejection is not unhandled', async () => {
    const controller = new AbortController();
    const wait = abortRejection(controller.signal);
    wait.dispose();
    controller.abort(new Error('late'));
    const settled = await Promise.race([
      wait.aborted.then(
        () => 'settled',
        () => 'settled',
      ),
      Promise.resolve('pending'),
    ]);
    expect(settled).toBe('pending');
    abortRejection(AbortSignal.abort(new Error('ignored')));
  });

  it('ends a process: stdin closed, a bounded wait for its exit, then its group terminated', async () => {
    const steps: string[] = [];
    const proc = {
      child: { stdin: { end: () => steps.push('stdin closed') } },
      exited: new Promise<AgentExit>(() => undefined),
      terminate: async () => (steps.push('terminated'), false),
    } as unknown as AgentProcess;
    await expect(endAgentProcess(proc, 5)).resolves.toBe(false);
    expect(steps).toEqual(['stdin closed', 'terminated']);
    await expect(endAgentProcess(undefined, 5)).resolves.toBe(true);
  });
});
