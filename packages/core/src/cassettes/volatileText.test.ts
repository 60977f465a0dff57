import { Redactor } from '../redaction/Redactor';
import { normalizeCassetteRequest } from './normalizeCassetteRequest';
import { hideVolatileText, isClientMintedId } from './volatileText';

describe('hideVolatileText', () => {
  it.each([
    ["Today's date is 2026-12-04.", "Today's date is <date>."],
    ['Today: Fri Dec 04 2026', 'Today: <date>'],
    ['It is Friday, December 4, 2026 here', 'It is <date> here'],
    ['on 12/4/2026', 'on <date>'],
    ['at 2026-12-04T16:21:09.123Z', 'at <timestamp>'],
    ['Wall time: 0.0957 seconds\nOutput: 5', 'Wall time: <duration> seconds\nOutput: 5'],
  ])('%j → %j', (text, hidden) => {
    expect(hideVolatileText(text)).toBe(hidden);
  });

  it('leaves other numbers alone', () => {
    expect(hideVolatileText('ship 2 kg to zone 12, order 2026')).toBe('ship 2 kg to zone 12, order 2026');
  });
});

describe('isClientMintedId', () => {
  it('knows the ids a client mints for its request items, not the ids a model gave', () => {
    expect(isClientMintedId('msg_0f8e1c2a-3b4d-4e5f-8a9b-0c1d2e3f4a5b')).toBe(true);
    expect(isClientMintedId('0f8e1c2a-3b4d-4e5f-8a9b-0c1d2e3f4a5b')).toBe(true);
    expect(isClientMintedId('fco_01a241e2-2d76-7f23-80ce-d18f3571451b')).toBe(true);
    expect(isClientMintedId('call_abc')).toBe(false);
    expect(isClientMintedId('shipping')).toBe(false);
    expect(isClientMintedId(7)).toBe(false);
  });
});

describe('a request recorded one day matches the same request the next', () => {
  // What real CLIs send: Codex mints an id per input item and writes its measured wall time into
  // each tool output; the CLIs put today's date in their system prompts.
  const request = (day: string, itemId: string, wall: string) =>
    normalizeCassetteRequest(
      {
        method: 'POST',
        path: '/v1/responses',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          instructions: `You are Codex. Current date: ${day}.`,
          input: [
            { id: itemId, type: 'message', role: 'user', content: [{ type: 'input_text', text: 'quote 2 kg' }] },
            {
              id: itemId.replace('msg_', 'fco_'),
              type: 'function_call_output',
              call_id: 'call_1',
              output: `Wall time: ${wall} seconds\nOutput: 9 USD`,
            },
          ],
        }),
      },
      { redactor: new Redactor() },
    );

  it('normalizes dates, wall times and minted item ids away', () => {
    expect(request('2026-12-04', 'msg_0f8e1c2a-3b4d-4e5f-8a9b-0c1d2e3f4a5b', '0.0957')).toEqual(
      request('2026-12-05', 'msg_9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d', '0.2'),
    );
    expect(request('2026-12-04', 'msg_0f8e1c2a-3b4d-4e5f-8a9b-0c1d2e3f4a5b', '0.1').body).toMatchObject({
      input: [{ type: 'message' }, { call_id: 'call_1', output: 'Wall time: <duration> seconds\nOutput: 9 USD' }],
    });
  });
});
