import type { ProcessExit } from './ChildProcessHandle';
import { quoteStderr, STDERR_QUOTE_BYTES, StdioConnectionEnd, type WatchedChild } from './StdioConnectionEnd';

function child(exit: ProcessExit | null, stderr = ''): WatchedChild {
  return {
    exit,
    exited: exit !== null ? Promise.resolve(exit) : new Promise<ProcessExit>(() => undefined),
    stderr: () => stderr,
  };
}

describe('quoteStderr', () => {
  test('quotes the last five lines as JSON text', () => {
    const text = Array.from({ length: 8 }, (_, i) => `l${i + 1}`).join('\n');
    expect(quoteStderr(`${text}\n\n`)).toBe('last stderr: "l4\\nl5\\nl6\\nl7\\nl8"');
  });

  test('says when there was none', () => {
    expect(quoteStderr('')).toBe('no stderr output');
    expect(quoteStderr('\n  \n')).toBe('no stderr output');
  });

  test('keeps at most 1 KiB, never starting inside a character', () => {
    const quoted = quoteStderr(`start\n${'é'.repeat(2000)}`);
    const inner = JSON.parse(quoted.slice('last stderr: '.length)) as string;
    expect(inner.startsWith('…é')).toBe(true);
    expect(Buffer.byteLength(inner.slice(1), 'utf8')).toBeLessThanOrEqual(STDERR_QUOTE_BYTES);
    expect(inner).not.toContain('\uFFFD');
  });
});

describe('StdioConnectionEnd', () => {
  test('names an exit code, a signal, or a bare exit', async () => {
    expect((await new StdioConnectionEnd(child({ code: 2, signal: null }, 'x')).describe('ping'))?.reason).toBe(
      'the server process exited with code 2 before answering ping (last stderr: "x")',
    );
    expect((await new StdioConnectionEnd(child({ code: null, signal: 'SIGTERM' })).describe('ping'))?.reason).toBe(
      'the server process was killed by signal SIGTERM before answering ping (no stderr output)',
    );
    expect((await new StdioConnectionEnd(child({ code: null, signal: null })).describe('ping'))?.reason).toBe(
      'the server process exited before answering ping (no stderr output)',
    );
  });

  test('a child still running after the bounded wait gives no evidence', async () => {
    expect(await new StdioConnectionEnd(child(null)).describe('ping', 20)).toBeUndefined();
  });

  test("the SDK's buffer-limit error wins over the exit that follows it", async () => {
    const end = new StdioConnectionEnd(child({ code: 0, signal: null }));
    end.noteTransportError(new SyntaxError('Unexpected token'));
    end.noteTransportError(new Error('ReadBuffer exceeded maximum size of 1024 bytes'));
    const described = await end.describe('tools/call');
    expect(described?.reason).toMatch(/^a message from the server exceeded the SDK's stdio buffer limit \(1024 bytes/);
    expect(described?.details).toEqual({ sdkBufferLimitBytes: 1024 });
  });
});
