import { readBounded } from './readBounded';

describe('readBounded', () => {
  test('reads a body under the limit', async () => {
    expect(await readBounded(new Response('{"a":1}'), 64)).toBe('{"a":1}');
    expect(await readBounded(new Response(null, { status: 204 }), 64)).toBe('');
  });

  test('stops at the limit, by declared length or by streamed bytes', async () => {
    expect(
      await readBounded(new Response('x'.repeat(65), { headers: { 'content-length': '65' } }), 64),
    ).toBeUndefined();
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(new Uint8Array(40));
      },
    });
    expect(await readBounded(new Response(stream), 64)).toBeUndefined();
  });
});
