import { ProtocolError } from '../errors';
import { listAll, MAX_PAGES } from './listAll';

describe('listAll', () => {
  test('follows cursors in order until none is given', async () => {
    const pages: Record<string, { items: number[]; nextCursor: string | undefined }> = {
      start: { items: [1, 2], nextCursor: 'b' },
      b: { items: [3], nextCursor: 'c' },
      c: { items: [], nextCursor: undefined },
    };
    const asked: Array<string | undefined> = [];
    const all = await listAll('tools/list', async (cursor) => {
      asked.push(cursor);
      return pages[cursor ?? 'start']!;
    });
    expect(all).toEqual([1, 2, 3]);
    expect(asked).toEqual([undefined, 'b', 'c']);
  });

  test('a cursor given twice throws ProtocolError naming the method', async () => {
    const cursors = ['a', 'b', 'a'];
    let i = 0;
    const error = (await listAll('prompts/list', async () => ({ items: [i], nextCursor: cursors[i++] })).catch(
      (e: unknown) => e,
    )) as ProtocolError;
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error.message).toMatch(/cursor repeated: prompts\/list/);
    expect(error.details).toMatchObject({ operation: 'prompts/list', errorKind: 'repeated_cursor', page: 3 });
  });

  test('a server inventing cursors forever is stopped', async () => {
    let n = 0;
    const error = (await listAll('tools/list', async () => ({ items: [], nextCursor: `c${n++}` })).catch(
      (e: unknown) => e,
    )) as ProtocolError;
    expect(error).toBeInstanceOf(ProtocolError);
    expect(n).toBe(MAX_PAGES);
  });
});
