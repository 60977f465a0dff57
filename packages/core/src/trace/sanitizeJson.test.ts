import { Redactor } from '../redaction/Redactor';
import { sanitizeJson } from './sanitizeJson';

describe('sanitizeJson', () => {
  const redactor = new Redactor(['canary-value-9']);

  it('gives the same result as toJSON round trip plus Redactor.redactJson', () => {
    const input = {
      text: 'has canary-value-9 inside',
      password: 'hunter2',
      nested: [{ apiKey: 42, ok: true, when: new Date(0), gone: undefined, fn: () => 1 }, Number.NaN, 'Bearer abc.def'],
      withToJson: { toJSON: () => ({ secret: 'x', plain: 'y' }) },
    };
    const expected = redactor.redactJson(JSON.parse(JSON.stringify(input)));
    expect(sanitizeJson(input, redactor)).toEqual(expected);
    expect(sanitizeJson(input, redactor)).toEqual({
      text: 'has [REDACTED] inside',
      password: '[REDACTED]',
      nested: [{ apiKey: '[REDACTED]', ok: true, when: '1970-01-01T00:00:00.000Z' }, null, 'Bearer [REDACTED]'],
      withToJson: { secret: '[REDACTED]', plain: 'y' },
    });
  });

  it('maps buffers, bigints and non-JSON leaves', () => {
    expect(sanitizeJson({ b: Buffer.from('hi'), n: 10n, s: Symbol('x') }, redactor)).toEqual({
      b: 'base64:aGk=',
      n: '10',
    });
    expect(sanitizeJson(undefined, redactor)).toBeUndefined();
    expect(sanitizeJson([undefined], redactor)).toEqual([null]);
  });

  it('cuts runaway depth', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 100; i += 1) deep = { d: deep };
    expect(JSON.stringify(sanitizeJson(deep, redactor))).toContain('[REDACTED]');
  });
});
