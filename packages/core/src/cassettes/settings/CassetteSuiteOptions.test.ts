import { parseCassetteSuiteOptions } from './CassetteSuiteOptions';

describe('parseCassetteSuiteOptions', () => {
  it('keeps servers and mode', () => {
    expect(parseCassetteSuiteOptions('s', {})).toEqual({});
    expect(parseCassetteSuiteOptions('s', { servers: true, mode: 'replay' })).toEqual({
      servers: true,
      mode: 'replay',
    });
    expect(parseCassetteSuiteOptions('s', { servers: false })).toEqual({ servers: false });
  });

  it('refuses unknown keys, a non-boolean servers, a bad mode and a non-object', () => {
    expect(() => parseCassetteSuiteOptions('s', { server: true })).toThrow(
      "describe.m3('s', { cassettes }, fn): unknown cassettes option server; use servers or mode",
    );
    expect(() => parseCassetteSuiteOptions('s', { servers: 'yes' })).toThrow('cassettes.servers must be true or false');
    expect(() => parseCassetteSuiteOptions('s', { mode: 'live' })).toThrow(
      `describe.m3('s', { cassettes }, fn): cassettes.mode is "live", which is not a cassette mode; use one of auto, record, replay, off`,
    );
    for (const bad of ['replay', null, [], 1]) {
      expect(() => parseCassetteSuiteOptions('s', bad)).toThrow('cassettes must be an object like { servers: true }');
    }
  });
});
