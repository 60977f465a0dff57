// Helpers for the fake model server's tests: JSON posts and a small server-sent-events reader.

/** One server-sent event. */
export interface SseEvent {
  readonly event: string | null;
  readonly data: unknown;
}

/** POSTs a JSON body to the fake; returns the raw response. */
export function postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

/** Reads a whole event stream and parses each event's `data:` as JSON. */
export async function readSse(response: Response): Promise<SseEvent[]> {
  expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const text = await response.text();
  return text
    .split(/\r?\n\r?\n/)
    .filter((block) => block.trim().length > 0)
    .map((block) => {
      const lines = block.split(/\r?\n/);
      const event = lines.find((l) => l.startsWith('event: '))?.slice('event: '.length) ?? null;
      const data = lines
        .filter((l) => l.startsWith('data: '))
        .map((l) => l.slice('data: '.length))
        .join('\n');
      return { event, data: JSON.parse(data) as unknown };
    });
}
