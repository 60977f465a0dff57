import { fuzzFailureMessage, type FuzzFailure } from './FuzzFailure';

const failure: FuzzFailure = {
  tool: 'crash',
  phase: 'valid',
  kind: 'crash',
  problem: 'the server process exited with code 3',
  input: { n: 101 },
  seed: -1788457163,
  path: '0:1:0',
  shrinks: 8,
};

describe('fuzzFailureMessage (contract §25)', () => {
  test('names the tool, the phase, the problem, the shrunk input, the seed and how to reproduce', () => {
    expect(fuzzFailureMessage(failure, 'tests/fuzz.test.ts').split('\n')).toEqual([
      'fuzz: tool crash crashed the server (the connection ended) on a valid input',
      '  problem: the server process exited with code 3',
      '  minimal input: {"n":101}',
      '  seed: -1788457163 (shrunk 8 time(s))',
      '  reproduce: npx m3 test --seed -1788457163   or   M3_FUZZ_SEED=-1788457163 npx jest tests/fuzz.test.ts',
      '  fast-check path: 0:1:0',
    ]);
  });

  test('an invalid-input failure says so; without a path or test file those parts are left out', () => {
    const message = fuzzFailureMessage({ ...failure, phase: 'invalid', kind: 'accepted_invalid', path: null });
    expect(message).toContain('fuzz: tool crash accepted an input that breaks its inputSchema on an invalid input');
    expect(message.split('\n').at(-1)).toBe(
      '  reproduce: npx m3 test --seed -1788457163   or   M3_FUZZ_SEED=-1788457163 npx jest',
    );
    expect(message).not.toContain('fast-check path');
  });
});
