// SPEC preamble: "a frozen const object per enum" — every enum object users import is frozen (a
// test cannot change what another test compares against) and typed with its literal values.
import * as core from '../index';

const ENUMS = [
  'ActivityHealth',
  'AttemptOutcome',
  'EvaluationStatus',
  'EventKind',
  'ExecutionLifecycle',
  'ExecutionOutcome',
  'JudgeErrorCode',
  'ObservationState',
  'RuntimeKind',
  'ToolCallStatus',
  'TraceCompleteness',
  'TransportKind',
  'TrustLevel',
] as const;

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
