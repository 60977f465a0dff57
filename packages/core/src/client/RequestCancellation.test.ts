import { RequestCancellation } from './RequestCancellation';

describe('RequestCancellation', () => {
  it('is not aborted until abort() and then throws its reason', () => {
    const cancellation = new RequestCancellation();
    expect(cancellation.aborted).toBe(false);
    expect(() => cancellation.throwIfAborted()).not.toThrow();
    const reason = new Error('client closed');
    cancellation.abort(reason);
    expect(cancellation.aborted).toBe(true);
    expect(cancellation.reason).toBe(reason);
    expect(() => cancellation.throwIfAborted()).toThrow(reason);
  });

  it('calls each abort listener once, in order, with an abort event; later aborts do nothing', () => {
    const cancellation = new RequestCancellation();
    const calls: string[] = [];
    const first = (event: Event) => calls.push(`first:${event.type}`);
    cancellation.addEventListener('abort', first);
    cancellation.addEventListener('abort', first);
    cancellation.addEventListener('abort', { handleEvent: (event: Event) => calls.push(`object:${event.type}`) });
    cancellation.addEventListener('other', () => calls.push('other'));
    cancellation.abort('one');
    cancellation.abort('two');
    expect(calls).toEqual(['first:abort', 'object:abort']);
    expect(cancellation.reason).toBe('one');
  });

  it('does not call removed listeners, nor listeners added after the abort', () => {
    const cancellation = new RequestCancellation();
    const calls: string[] = [];
    const removed = () => calls.push('removed');
    cancellation.addEventListener('abort', removed);
    cancellation.removeEventListener('abort', removed);
    cancellation.abort('closed');
    cancellation.addEventListener('abort', () => calls.push('late'));
    expect(calls).toEqual([]);
  });
});
