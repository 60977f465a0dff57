'use strict';
// Reads an OpenAI Chat Completions stream (`chat.completion.chunk` events, then `[DONE]`) into one
// assistant turn, as OpenCode's and Pi's OpenAI-compatible providers do: text, tool calls
// (arguments joined by index), the finish reason and the usage chunk.
const { sseEvents } = require('./modelHttp');

/** `{ id, model, text, toolCalls: [{ id, name, arguments }], finishReason, usage: { prompt_tokens, completion_tokens } }`. */
async function readChatCompletionsStream(response) {
  const turn = { id: null, model: null, text: '', toolCalls: [], finishReason: null, usage: null };
  for await (const { data } of sseEvents(response)) {
    if (data === '[DONE]') break;
    if (typeof data !== 'object' || data === null) continue;
    if (data.error) throw new Error(`stream error: ${JSON.stringify(data.error)}`);
    turn.id ??= data.id;
    turn.model ??= data.model;
    if (data.usage) turn.usage = data.usage;
    for (const choice of data.choices ?? []) {
      const delta = choice.delta ?? {};
      if (typeof delta.content === 'string') turn.text += delta.content;
      for (const call of delta.tool_calls ?? []) {
        const slot = (turn.toolCalls[call.index ?? 0] ??= { id: '', name: '', arguments: '' });
        if (call.id) slot.id = call.id;
        if (call.function?.name) slot.name += call.function.name;
        if (call.function?.arguments) slot.arguments += call.function.arguments;
      }
      if (choice.finish_reason) turn.finishReason = choice.finish_reason;
    }
  }
  turn.toolCalls = turn.toolCalls.filter((c) => c !== undefined);
  return turn;
}

module.exports = { readChatCompletionsStream };
