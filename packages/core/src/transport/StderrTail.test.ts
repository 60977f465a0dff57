import { StderrTail } from './StderrTail';

describe('StderrTail', () => {
  it('keeps everything under the limit', () => {
    const tail = new StderrTail(100);
    tail.append('hello\n');
    tail.append(Buffer.from('world\n'));
    expect(tail.text()).toBe('hello\nworld\n');
    expect(tail.totalBytes).toBe(12);
    expect(tail.truncated).toBe(false);
  });

  it('keeps the newest bytes and restarts at a line boundary once truncated', () => {
    const tail = new StderrTail(20);
    tail.append('first line with SECRET-ABCDEF\n');
    tail.append('second\n');
    tail.append('third\n');
    expect(tail.truncated).toBe(true);
    expect(tail.totalBytes).toBe(43);
    // The cut-off fragment of the first line is dropped, not shown half.
    expect(tail.text()).toBe('second\nthird\n');
  });

  it('never starts inside a multi-byte character', () => {
    const tail = new StderrTail(5);
    tail.append('ééééé');
    const text = tail.text();
    expect(text).not.toContain('\uFFFD');
    expect(text.length).toBeGreaterThan(0);
    expect('ééééé'.endsWith(text)).toBe(true);
  });
});
