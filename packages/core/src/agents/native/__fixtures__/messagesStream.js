'use strict';
// Reads an Anthropic Messages stream (message_start, content_block_start/delta/stop...,
// message_delta, message_stop) into the whole message, as Claude Code does; `onBlock` gets each
// content block when it is complete (Claude Code writes one `assistant` line per block).
const { sseEvents } = require('./modelHttp');

/** The assembled message: `{ id, model, content, stop_reason, usage: { input_tokens, output_tokens } }`. */
async function readMessagesStream(response, onBlock = () => undefined) {
  let message = null;
  const partial = new Map(); // index -> { block, json }
  for await (const { data } of sseEvents(response)) {
    if (typeof data !== 'object' || data === null) continue;
    if (data.type === 'error') throw new Error(`stream error: ${JSON.stringify(data.error)}`);
    if (data.type === 'message_start') message = { ...data.message, content: [] };
    else if (data.type === 'content_block_start')
      partial.set(data.index, { block: { ...data.content_block }, json: '' });
    else if (data.type === 'content_block_delta') {
      const entry = partial.get(data.index);
      if (data.delta.type === 'text_delta') entry.block.text = (entry.block.text ?? '') + data.delta.text;
      else if (data.delta.type === 'input_json_delta') entry.json += data.delta.partial_json;
      else if (data.delta.type === 'thinking_delta')
        entry.block.thinking = (entry.block.thinking ?? '') + data.delta.thinking;
    } else if (data.type === 'content_block_stop') {
      const { block, json } = partial.get(data.index);
      if (block.type === 'tool_use') block.input = json === '' ? {} : JSON.parse(json);
      message.content[data.index] = block;
      onBlock(block, message);
    } else if (data.type === 'message_delta') {
      message.stop_reason = data.delta.stop_reason ?? message.stop_reason;
      message.usage = { ...message.usage, ...data.usage };
    }
  }
  if (message === null) throw new Error('the Messages stream ended before message_start');
  return message;
}

module.exports = { readMessagesStream };
