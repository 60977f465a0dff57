import { Redactor } from '../../redaction/Redactor';
import { cassetteScopeDouble } from './cassetteScopeDouble.testkit';
import { ExecutionCassette } from './ExecutionCassette';

// The per-execution holder of the channel, over a scope double (wiring only).

const cassetteOf = (double: ReturnType<typeof cassetteScopeDouble>) =>
  new ExecutionCassette(double.scope, 'openai m trial 1', 'https://api.openai.com/v1', new Redactor(), 1);

describe('ExecutionCassette', () => {
  it('opens one channel however often it is asked, with the volatile strings once each', async () => {
    const double = cassetteScopeDouble('auto', { use: 'recorded' });
    const cassette = cassetteOf(double);
    const [a, b] = await Promise.all([cassette.open(['/tmp/x', '/tmp/x', '']), cassette.open()]);
    expect(a).toBe(b);
    expect(double.opened).toEqual([
      {
        channel: 'openai m trial 1',
        upstream: 'https://api.openai.com/v1',
        volatileStrings: ['/tmp/x'],
        redactor: expect.any(Redactor) as unknown,
      },
    ]);
    expect(await cassette.settle()).toEqual({ use: 'recorded', miss: null });
    expect(double.closed()).toBe(1);
  });

  it("settles a channel never opened as nothing, and reports the channel's miss before one noted", async () => {
    const unopened = cassetteOf(cassetteScopeDouble('replay'));
    expect(await unopened.settle()).toEqual({ use: null, miss: null });

    const channelMiss = new Error('no recorded model response');
    const cassette = cassetteOf(cassetteScopeDouble('replay', { use: 'replayed', miss: channelMiss }));
    cassette.noteMiss(new Error('the servers side missed too'));
    expect(cassette.miss()).not.toBe(channelMiss); // before the channel is open, the noted one
    await cassette.open();
    expect(await cassette.settle()).toEqual({ use: 'replayed', miss: channelMiss });
  });

  it('gives the placeholder key only in replay', () => {
    expect(cassetteOf(cassetteScopeDouble('replay')).apiKey(undefined)).toBe('m3-cassette-replay');
    expect(cassetteOf(cassetteScopeDouble('record')).apiKey(undefined)).toBeUndefined();
    expect(cassetteOf(cassetteScopeDouble('replay')).apiKey('sk-own')).toBe('sk-own');
  });
});
