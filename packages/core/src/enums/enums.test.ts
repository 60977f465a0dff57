// contract preamble: "a frozen const object per enum" — every enum object users import is frozen (a
// test cannot change what another test compares against) and typed with its literal values.
import * as core from '../index';

/** Every exported object of UPPER_CASE keys and string values: an enum, wherever it is declared. */
const ENUMS = Object.entries(core as unknown as Record<string, unknown>)
  .filter(
    ([, value]) =>
      typeof value === 'object' &&
      value !== null &&
      !Array.isArray(value) &&
      Object.keys(value).length > 1 &&
      Object.entries(value).every(([key, literal]) => /^[A-Z][A-Z0-9_]*$/.test(key) && typeof literal === 'string'),
  )
  .map(([name]) => name)
  .sort();

test('the enums are found (contract names EvaluationStatus, ToolCallStatus, ObservationState, …)', () => {
  expect(ENUMS).toEqual(
    expect.arrayContaining(['EvaluationStatus', 'EventKind', 'ObservationState', 'ToolCallStatus']),
  );
  expect(ENUMS.length).toBeGreaterThanOrEqual(13);
});

describe('enum objects', () => {
  test.each(ENUMS)('%s is frozen and holds lowercase string values under UPPER_CASE keys', (name) => {
    const value = (core as unknown as Record<string, Record<string, unknown>>)[name]!;
    expect(Object.isFrozen(value)).toBe(true);
    expect(Object.keys(value).length).toBeGreaterThan(1);
    for (const [key, literal] of Object.entries(value)) {
      expect(key).toMatch(/^[A-Z][A-Z0-9_]*$/);
      expect(typeof literal).toBe('string');
      expect(literal).toMatch(/^[a-z][a-z0-9_.]*$/);
    }
    expect(() => {
      'use strict';
      (value as Record<string, unknown>).INJECTED = 'x';
    }).toThrow(TypeError);
    expect(value).not.toHaveProperty('INJECTED');
  });

  test('the objects keep their literal types (as const)', () => {
    const passed: 'passed' = core.EvaluationStatus.PASSED;
    const stdio: 'stdio' = core.TransportKind.STDIO;
    const outcome: core.ExecutionOutcome = core.ExecutionOutcome.TIMED_OUT;
    expect([passed, stdio, outcome]).toEqual(['passed', 'stdio', 'timed_out']);
  });
});
