import { matchValue, UNAVAILABLE } from './matchValue';

describe('matchValue', () => {
  test('primitives use strict equality: true never equals 1, "1" never equals 1', () => {
    expect(matchValue(1, 1)).toBe(true);
    expect(matchValue(true, 1)).toBe(false);
    expect(matchValue('1', 1)).toBe(false);
    expect(matchValue(null, undefined)).toBe(false);
    expect(matchValue(0, -0)).toBe(true);
  });
  test('objects: exact key sets unless partial; undefined values count as absent', () => {
    expect(matchValue({ a: 1, b: 2 }, { a: 1 })).toBe(false);
    expect(matchValue({ a: 1, b: 2 }, { a: 1 }, { partial: true })).toBe(true);
    expect(matchValue({ a: 1 }, { a: 1, b: undefined })).toBe(true);
    expect(matchValue({ a: { b: 1, c: 2 } }, { a: { b: 1 } }, { partial: true })).toBe(true);
    expect(matchValue({ a: 1 }, { b: 1 }, { partial: true })).toBe(false);
  });
  test('arrays: same length pairwise, or a multiset when unordered', () => {
    expect(matchValue([1, 2], [1, 2])).toBe(true);
    expect(matchValue([1, 2], [2, 1])).toBe(false);
    expect(matchValue([1, 2], [2, 1], { unordered: true })).toBe(true);
    expect(matchValue([1, 1, 2], [1, 2, 2], { unordered: true })).toBe(false);
    expect(matchValue([1, 2], [1])).toBe(false);
    expect(matchValue({ a: 1 }, [1])).toBe(false);
  });
  test('regex option: whole-value match of expected strings', () => {
    expect(matchValue('Oslo', 'O.*', { regex: true })).toBe(true);
    expect(matchValue('Oslo', 'sl', { regex: true })).toBe(false);
    expect(matchValue('Oslo', 'O.*')).toBe(false);
  });
  test('RegExp values search the actual string', () => {
    expect(matchValue('Oslo', /sl/)).toBe(true);
    expect(matchValue(5, /5/)).toBe(false);
  });
  test('tolerance: finite numbers within an absolute bound, booleans excluded', () => {
    expect(matchValue(1.05, 1, { tolerance: 0.1 })).toBe(true);
    expect(matchValue(1.2, 1, { tolerance: 0.1 })).toBe(false);
    expect(matchValue(true, 1, { tolerance: 1 })).toBe(false);
    expect(matchValue({ t: [20.4] }, { t: [20] }, { tolerance: 0.5 })).toBe(true);
  });
  test('asymmetric matchers are honoured at any depth', () => {
    expect(matchValue({ a: 'x', b: [1] }, { a: expect.any(String), b: expect.arrayContaining([1]) })).toBe(true);
    expect(matchValue({ a: 1 }, { a: expect.any(String) })).toBe(false);
  });
  test('UNAVAILABLE never matches, not even itself', () => {
    expect(matchValue(UNAVAILABLE, UNAVAILABLE)).toBe(false);
    expect(matchValue(UNAVAILABLE, null)).toBe(false);
  });
  test('objects from another realm are plain objects', () => {
    const foreign = require('node:vm').runInNewContext('({ a: 1, b: [1, 2] })') as unknown;
    expect(matchValue(foreign, { a: 1, b: [1, 2] })).toBe(true);
  });
});
