import { m3Matchers } from './index';
import { EXEC_ID, failureOf, fakeKit, linked, trace, turnOf } from './matchers.testkit';

expect.extend(m3Matchers);

const toolResult = {
  content: [
    { type: 'text', text: 'Hello, ' },
    { type: 'image', data: 'AAAA', mimeType: 'image/png' },
    { type: 'text', text: 'world' },
  ],
  isError: false,
  executionId: EXEC_ID,
  tool: 'greet',
  server: 'example',
};
const resource = { contents: [{ uri: 'file:///a', text: 'readme body' }], text: 'readme body' };

describe('text matchers', () => {
  test('toHaveText: text blocks joined with no separator; resources, turns and strings', () => {
    expect(toolResult).toHaveText('Hello, world');
    expect(resource).toHaveText('readme body');
    expect(turnOf(trace(), 'turn-1', 'It is sunny.')).toHaveText('It is sunny.');
    expect('plain').toHaveText('plain');
    expect(toolResult).not.toHaveText('Hello');
  });

  test('toHaveText failure shows a diff and the execution id', () => {
    const message = failureOf(() => expect(toolResult).toHaveText('Hello, World'));
    expect(message).toContain('Expected text');
    expect(message.endsWith(`executionId=${EXEC_ID}`)).toBe(true);
    expect(message).toMatchSnapshot();
    expect(failureOf(() => expect(toolResult).not.toHaveText('Hello, world'))).toMatchSnapshot();
  });

  test('toHaveTextContaining', () => {
    expect(toolResult).toHaveTextContaining('lo, wo');
    expect(toolResult).not.toHaveTextContaining('bye');
    expect(failureOf(() => expect(resource).toHaveTextContaining('missing'))).toMatchSnapshot();
    expect(failureOf(() => expect(resource).not.toHaveTextContaining('readme'))).toContain(
      'Expected text not to contain',
    );
  });

  test('toHaveTextMatching searches with a RegExp or a pattern string', () => {
    expect(toolResult).toHaveTextMatching(/world$/);
    expect(toolResult).toHaveTextMatching('H.llo');
    expect(toolResult).toHaveTextMatching(/WORLD/i);
    expect(toolResult).not.toHaveTextMatching(/^world/);
    expect(failureOf(() => expect('abc').toHaveTextMatching(/\d+/))).toMatchSnapshot();
  });

  test('a global RegExp does not carry lastIndex between assertions', () => {
    const re = /o/g;
    expect('foo').toHaveTextMatching(re);
    expect('foo').toHaveTextMatching(re);
  });

  test('a sticky RegExp still searches the whole text', () => {
    expect('shipping quote').toHaveTextMatching(/quote/y);
  });

  test('subjects without text and non-string expectations are usage errors', () => {
    expect(() => expect(42).toHaveText('42')).toThrow('received value must be a string, a tool result');
    expect(() => expect({}).toHaveTextContaining('x')).toThrow('received value must be');
    expect(() => expect('x').toHaveText(1 as never)).toThrow('expected value must be a string');
    expect(() => expect('x').toHaveTextMatching(1 as never)).toThrow('must be a RegExp or a string pattern');
  });

  test('messages are redacted with the kit redactor and bounded', () => {
    const kit = fakeKit({ recordChecks: false, secrets: ['sk-live-1234567890'] });
    const secretResult = linked(
      { ...toolResult, content: [{ type: 'text', text: 'token sk-live-1234567890 here' }] },
      kit,
    );
    const message = failureOf(() => expect(secretResult).toHaveText('nothing'));
    expect(message).not.toContain('sk-live-1234567890');
    expect(message).toContain('[REDACTED]');
    const long = failureOf(() => expect('x'.repeat(50_000)).toHaveTextContaining('y'));
    expect(long.length).toBeLessThan(9000);
    expect(long).toContain('more chars]');
  });

  test('without a kit, bearer tokens are still redacted', () => {
    const message = failureOf(() => expect('Authorization: Bearer abc.def.ghi').toHaveText('x'));
    expect(message).not.toContain('abc.def.ghi');
  });
});
