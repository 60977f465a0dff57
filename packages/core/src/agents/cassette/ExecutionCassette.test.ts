import { Redactor } from '../../redaction/Redactor';
import { cassetteScopeDouble } from './cassetteScopeDouble.testkit';
import { combinedUse, ExecutionCassette } from './ExecutionCassette';

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

  it("settles a channel never opened as nothing, and reports a server's miss before the model channel's", async () => {
    const unopened = cassetteOf(cassetteScopeDouble('replay'));
    expect(await unopened.settle()).toEqual({ use: null, miss: null });

    const channelMiss = new Error('no recorded model response');
    const serverMiss = new Error('no recorded MCP server answer');
    const modelOnly = cassetteOf(cassetteScopeDouble('replay', { use: 'replayed', miss: channelMiss }));
    await modelOnly.open();
    expect(await modelOnly.settle()).toEqual({ use: 'replayed', miss: channelMiss });

    // The server's miss came first: the model then saw its error answer and asked something new.
    const both = cassetteOf(cassetteScopeDouble('replay', { use: 'replayed', miss: channelMiss }));
    await both.open();
    both.noteMiss(serverMiss);
    expect(await both.settle()).toEqual({ use: 'replayed', miss: serverMiss });
  });

  it("folds the servers' side into the use, and gives it the volatile strings the channel got", async () => {
    const cassette = cassetteOf(cassetteScopeDouble('auto', { use: 'replayed' }));
    expect(cassette.volatileStrings()).toEqual([]);
    await cassette.open(['/tmp/work', '/tmp/work']);
    expect(cassette.volatileStrings()).toEqual(['/tmp/work']);
    let servers: 'replayed' | 'recorded' | null = null;
    cassette.addSide({ use: () => servers });
    expect((await cassette.settle()).use).toBe('replayed');
    servers = 'replayed';
    expect((await cassette.settle()).use).toBe('replayed');
    servers = 'recorded';
    expect((await cassette.settle()).use).toBe('mixed');
  });

  it('combines uses: none, one shared, or mixed', () => {
    expect(combinedUse([null, null])).toBeNull();
    expect(combinedUse(['recorded', null, 'recorded'])).toBe('recorded');
    expect(combinedUse(['replayed', 'recorded'])).toBe('mixed');
    expect(combinedUse(['mixed', 'replayed'])).toBe('mixed');
  });

  it('gives the placeholder key only in replay', () => {
    expect(cassetteOf(cassetteScopeDouble('replay')).apiKey(undefined)).toBe('m3-cassette-replay');
    expect(cassetteOf(cassetteScopeDouble('record')).apiKey(undefined)).toBeUndefined();
    expect(cassetteOf(cassetteScopeDouble('replay')).apiKey('sk-own')).toBe('sk-own');
  });
});
