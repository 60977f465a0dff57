'use strict';
// The model side of the fake native CLIs' model-driven mode (FAKE_<CLI>_MODEL=1): one streamed
// POST to the model endpoint, read as server-sent events, the way the real CLIs talk to their
// provider. A non-2xx answer (a provider error, a cassette miss's HTTP 599) is a ModelHttpError the
// fixture turns into its CLI's own API-error output.

/** A model endpoint that answered with a status other than 2xx. */
class ModelHttpError extends Error {
  constructor(status, body) {
    super(`${status} ${body}`);
    this.name = 'ModelHttpError';
    this.status = status;
    this.body = body;
  }
}

/** POSTs `body` as JSON with `headers`; resolves the response, or throws ModelHttpError (network errors as status 0). */
async function postModel(url, headers, body) {
  let response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  } catch (error) {
    throw new ModelHttpError(0, `Connection error: ${error.cause?.message ?? error.message}`);
  }
  if (response.status < 200 || response.status >= 300) throw new ModelHttpError(response.status, await response.text());
  return response;
}

/** The events of a `text/event-stream` response, in order: `{ event, data }` (`data` parsed as JSON, or the raw text). */
async function* sseEvents(response) {
  const decoder = new TextDecoder();
  let buffer = '';
  const parse = (block) => {
    const lines = block.split(/\r?\n/);
    const event =
      lines
        .find((l) => l.startsWith('event:'))
        ?.slice(6)
        .trim() ?? null;
    const raw = lines
      .filter((l) => l.startsWith('data:'))
      .map((l) => l.slice(5).replace(/^ /, ''))
      .join('\n');
    let data = raw;
    try {
      data = JSON.parse(raw);
    } catch {
      // `[DONE]` and other plain text stay text.
    }
    return { event, data };
  };
  for await (const chunk of response.body) {
    buffer += decoder.decode(chunk, { stream: true });
    for (let end = buffer.search(/\r?\n\r?\n/); end !== -1; end = buffer.search(/\r?\n\r?\n/)) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end).replace(/^\r?\n\r?\n/, '');
      if (block.trim() !== '') yield parse(block);
    }
  }
  if (buffer.trim() !== '') yield parse(buffer);
}

module.exports = { ModelHttpError, postModel, sseEvents };
