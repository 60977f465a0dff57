'use strict';
// Reads an OpenAI Responses stream (response.created ... response.output_item.done ...
// response.completed) into the finished response, as Codex does: its output items in order and its usage.
const { sseEvents } = require('./modelHttp');

/** The completed response: `{ id, model, output: [items], usage }`; `onItem` gets each output item when done. */
async function readResponsesStream(response, onItem = () => undefined) {
  const items = [];
  for await (const { data } of sseEvents(response)) {
    if (typeof data !== 'object' || data === null) continue;
    if (data.type === 'response.output_item.done') {
      items[data.output_index] = data.item;
      onItem(data.item);
    } else if (data.type === 'response.completed' || data.type === 'response.incomplete') {
      return { ...data.response, output: data.response.output?.length ? data.response.output : items };
    } else if (data.type === 'response.failed' || data.type === 'error') {
      throw new Error(`stream error: ${JSON.stringify(data.response?.error ?? data)}`);
    }
  }
  throw new Error('the Responses stream ended before response.completed');
}

module.exports = { readResponsesStream };
