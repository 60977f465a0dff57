#!/usr/bin/env node
// A stand-in for `pi --mode rpc` (Pi 0.73.1), speaking the frames recorded from the real CLI in
// pi-rpc-0.73.1.jsonl beside it. It loads the SAME MCP bridge the kit's Pi extension uses (the
// built dist), so its tool calls really cross the wire through the capture proxies, and reports
// the extension's status the same way. Scripted by the prompt text:
// one directive per line of the prompt, tool calls first:
//   call <pi tool name> <json args>   a tool call (through the bridge), then "done after N tool call(s)"
//   think                             a thinking block before the answer
//   stream-and-hang                   streams a partial answer, then waits (for abort, or forever)
//   exit-mid-turn                     exits with code 3 (after the tool calls)
//   model-error                       ends the turn with stopReason "error"
//   refuse                            (the whole prompt) answers the prompt command with success: false
//   anything else                     answers "echo: <prompt>"
// and by the environment: FAKE_PI_IGNORE_SIGTERM=1, FAKE_PI_NO_USAGE=1, FAKE_PI_NO_STATUS=1,
// FAKE_PI_SILENT=1 (reads commands, answers none),
// FAKE_PI_ALL_TOOLS=1 (registers every tool, so a denied call reaches the wire and the proxy),
// FAKE_PI_ARGV_FILE=<path> (writes its argv and the env names it got, for launch tests).
// FAKE_PI_MODEL=1 makes it model-driven instead (no script): each prompt asks the model of its
// models.json provider at `<baseUrl>/chat/completions` (Chat Completions, streamed, the key from the
// variable the provider's apiKey names as a bearer token, the cwd in the system prompt) as Pi's
// openai-completions API does, runs each tool call through the bridge, sends the results back, and
// ends with the model's text; an HTTP error ends the turn with stopReason "error".
'use strict';

const { existsSync, readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const dist = join(__dirname, '..', '..', '..', '..', 'dist', 'agents', 'pi', 'extension');
const { openPiMcpBridge } = require(join(dist, 'piMcpBridge.js'));
const { readPiBridgeConfig, PI_BRIDGE_STATUS_KEY } = require(join(dist, 'piBridgeConfig.js'));
const { toPiToolOutput } = require(join(dist, 'piToolResult.js'));

const { postModel } = require('../../native/__fixtures__/modelHttp');
const { readChatCompletionsStream } = require('../../native/__fixtures__/chatCompletionsStream');

const argv = process.argv.slice(2);
const flag = (name) => {
  const i = argv.indexOf(name);
  return i === -1 ? undefined : argv[i + 1];
};
if (process.env.FAKE_PI_ARGV_FILE) {
  const models = join(process.env.PI_CODING_AGENT_DIR ?? '', 'models.json');
  const seen = {
    argv,
    env: Object.keys(process.env).sort(),
    keyValue: process.env.M3_PI_API_KEY ?? null,
    modelsJson: existsSync(models) ? readFileSync(models, 'utf8') : null,
  };
  writeFileSync(process.env.FAKE_PI_ARGV_FILE, JSON.stringify(seen));
}
if (flag('--mode') !== 'rpc') {
  process.stderr.write('fake-pi only speaks --mode rpc\n');
  process.exit(2);
}
const stubborn = process.env.FAKE_PI_IGNORE_SIGTERM === '1';
if (stubborn) {
  // A CLI stuck for good: SIGTERM and the end of stdin change nothing; only SIGKILL ends it.
  process.on('SIGTERM', () => undefined);
  setInterval(() => undefined, 1000);
}

const provider = flag('--provider') ?? 'fake';
const modelId = flag('--model') ?? 'model';
const sessionId = `fake-session-${process.pid}`;
let bridge;
let turn;
let calls = 0;

const write = (frame) => process.stdout.write(`${JSON.stringify(frame)}\n`);
const usage = (n) =>
  process.env.FAKE_PI_NO_USAGE === '1'
    ? undefined
    : {
        input: 10 * n,
        output: 5,
        cacheRead: 2,
        cacheWrite: 0,
        totalTokens: 10 * n + 7,
        cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0.001 },
      };

/** An assistant message as Pi 0.73.1 writes it (see the recorded sample). */
function assistant(content, stopReason, extra = {}) {
  const u = usage(1);
  return {
    role: 'assistant',
    content,
    api: 'openai-completions',
    provider,
    model: modelId,
    ...(u !== undefined && { usage: u }),
    stopReason,
    timestamp: Date.now(),
    responseId: `chatcmpl-fake-${++calls}`,
    ...extra,
  };
}

function endMessage(message) {
  write({ type: 'message_start', message: { ...message, content: [] } });
  write({ type: 'message_end', message });
  write({ type: 'turn_end', message, toolResults: [] });
}

async function runTool(line) {
  const [, name, json] = /^call (\S+)\s*(.*)$/.exec(line);
  const args = json === '' ? {} : JSON.parse(json);
  const toolCallId = `call_${calls + 1}_1`;
  endMessage(assistant([{ type: 'toolCall', id: toolCallId, name, arguments: args }], 'toolUse'));
  return executeTool(toolCallId, name, args);
}

/** Runs one tool call through the bridge, writing its execution and toolResult frames; resolves the result. */
async function executeTool(toolCallId, name, args) {
  write({ type: 'tool_execution_start', toolCallId, toolName: name, args });
  let result;
  let isError;
  if (!bridge.tools.some((t) => t.name === name)) {
    result = { content: [{ type: 'text', text: `Tool ${name} not found` }], details: {} };
    isError = true;
  } else {
    try {
      const tool = bridge.tools.find((t) => t.name === name);
      const mcp = await bridge.call(name, args, toolCallId);
      const output = toPiToolOutput(mcp, tool.server, tool.tool);
      isError = mcp.isError === true;
      result = isError
        ? { content: [{ type: 'text', text: output.text }], details: {} }
        : { content: output.content, details: output.details };
    } catch (error) {
      result = { content: [{ type: 'text', text: error.message }], details: {} };
      isError = true;
    }
  }
  write({ type: 'tool_execution_end', toolCallId, toolName: name, result, isError });
  const toolResult = {
    role: 'toolResult',
    toolCallId,
    toolName: name,
    content: result.content,
    details: result.details,
    isError,
    timestamp: Date.now(),
  };
  write({ type: 'message_start', message: toolResult });
  write({ type: 'message_end', message: toolResult });
  return toolResult;
}

const modelDriven = process.env.FAKE_PI_MODEL === '1';
/** The conversation sent to the model, across prompts (model-driven mode). */
const history = [];

/** The provider of models.json: where and with which key (the variable its apiKey names, or the value itself). */
function providerEndpoint() {
  const file = join(process.env.PI_CODING_AGENT_DIR ?? '', 'models.json');
  const entry = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')).providers?.[provider] ?? {}) : {};
  const key = entry.apiKey === undefined ? '' : (process.env[entry.apiKey] ?? entry.apiKey);
  return { url: `${String(entry.baseUrl ?? 'https://api.openai.com/v1').replace(/\/$/, '')}/chat/completions`, key };
}

/** Pi's usage of one answer. */
function modelUsage(usage = {}) {
  const input = usage.prompt_tokens ?? 0;
  const output = usage.completion_tokens ?? 0;
  return {
    input,
    output,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: input + output,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: (input * 3 + output * 15) / 1e6 },
  };
}

/** One model-driven prompt: model → tool calls → bridge calls → tool messages → ... → the model's text. */
async function modelPrompt(user, finish) {
  if (history.length === 0) {
    history.push({
      role: 'system',
      content: `You are an expert coding assistant operating inside pi, a coding agent harness.\nCurrent working directory: ${process.cwd()}`,
    });
  }
  history.push({ role: 'user', content: user.content[0].text });
  const { url, key } = providerEndpoint();
  const tools = bridge.tools.map((t) => ({
    type: 'function',
    function: { name: t.name, description: t.description, parameters: t.inputSchema },
  }));
  for (let round = 0; round < 10; round++) {
    let answer;
    try {
      const response = await postModel(url, key === '' ? {} : { authorization: `Bearer ${key}` }, {
        model: modelId,
        messages: history,
        tools,
        stream: true,
        stream_options: { include_usage: true },
        store: false,
      });
      answer = await readChatCompletionsStream(response);
    } catch (error) {
      const m = assistant([], 'error', { errorMessage: `${error.status ?? ''} ${error.body ?? error.message}`.trim() });
      endMessage(m);
      return finish(m);
    }
    const usage = process.env.FAKE_PI_NO_USAGE === '1' ? {} : { usage: modelUsage(answer.usage ?? {}) };
    const content = [];
    if (answer.text !== '') content.push({ type: 'text', text: answer.text });
    const calls = answer.toolCalls.map((c) => ({
      type: 'toolCall',
      id: c.id,
      name: c.name,
      arguments: c.arguments === '' ? {} : JSON.parse(c.arguments),
    }));
    content.push(...calls);
    const message = { ...assistant(content, calls.length > 0 ? 'toolUse' : 'stop'), ...usage, responseId: answer.id };
    history.push({
      role: 'assistant',
      content: answer.text === '' ? null : answer.text,
      ...(calls.length > 0 && {
        tool_calls: answer.toolCalls.map((c) => ({
          id: c.id,
          type: 'function',
          function: { name: c.name, arguments: c.arguments },
        })),
      }),
    });
    if (calls.length === 0) {
      write({ type: 'message_start', message: { ...message, content: [] } });
      write({
        type: 'message_update',
        assistantMessageEvent: { type: 'text_delta', contentIndex: 0, delta: answer.text, partial: message },
        message,
      });
      write({ type: 'message_end', message });
      write({ type: 'turn_end', message, toolResults: [] });
      return finish(message);
    }
    endMessage(message);
    for (const call of calls) {
      const result = await executeTool(call.id, call.name, call.arguments);
      history.push({
        role: 'tool',
        tool_call_id: call.id,
        content: result.content.map((c) => c.text ?? '').join('\n'),
      });
    }
  }
  const stopped = assistant([{ type: 'text', text: 'stopped after 10 model rounds' }], 'stop');
  endMessage(stopped);
  return finish(stopped);
}

async function prompt(id, message) {
  if (message === 'refuse')
    return write({ id, type: 'response', command: 'prompt', success: false, error: 'refused by the fixture' });
  write({ id, type: 'response', command: 'prompt', success: true });
  write({ type: 'agent_start' });
  write({ type: 'turn_start' });
  const user = { role: 'user', content: [{ type: 'text', text: message }], timestamp: Date.now() };
  write({ type: 'message_start', message: user });
  write({ type: 'message_end', message: user });
  const messages = [user];
  const finish = (last) => {
    messages.push(last);
    write({ type: 'agent_end', messages });
    turn = undefined;
  };
  if (modelDriven) return modelPrompt(user, finish);
  const lines = message.split('\n').map((l) => l.trim());
  let tools = 0;
  for (const line of lines.filter((l) => l.startsWith('call '))) {
    await runTool(line);
    tools++;
  }
  if (lines.includes('exit-mid-turn')) process.exit(3);
  if (lines.includes('model-error')) {
    const m = assistant([], 'error', { errorMessage: '500 the fake provider failed' });
    endMessage(m);
    return finish(m);
  }
  if (lines.includes('stream-and-hang')) {
    const partial = assistant([{ type: 'text', text: 'partial answer' }], 'stop');
    // One write (under PIPE_BUF, so one read): a reader that sees the message start has its text too.
    const update = {
      type: 'message_update',
      assistantMessageEvent: { type: 'text_delta', contentIndex: 0, delta: 'partial answer', partial },
      message: partial,
    };
    process.stdout.write(
      `${JSON.stringify({ type: 'message_start', message: { ...partial, content: [] } })}\n${JSON.stringify(update)}\n`,
    );
    turn = {
      abort: () => {
        const m = assistant([{ type: 'text', text: 'partial answer' }], 'aborted', {
          errorMessage: 'Request was aborted.',
        });
        write({ type: 'message_end', message: m });
        write({ type: 'turn_end', message: m, toolResults: [] });
        finish(m);
      },
    };
    return undefined;
  }
  const content = [];
  if (lines.includes('think')) content.push({ type: 'thinking', thinking: 'the user wants an answer' });
  content.push({ type: 'text', text: tools > 0 ? `done after ${tools} tool call(s)` : `echo: ${message}` });
  const last = assistant(content, 'stop');
  write({ type: 'message_start', message: { ...last, content: [] } });
  write({
    type: 'message_update',
    assistantMessageEvent: { type: 'text_delta', contentIndex: 0, delta: content.at(-1).text, partial: last },
    message: last,
  });
  write({ type: 'message_end', message: last });
  write({ type: 'turn_end', message: last, toolResults: [] });
  return finish(last);
}

async function main() {
  const config = readPiBridgeConfig();
  bridge = await openPiMcpBridge(process.env.FAKE_PI_ALL_TOOLS === '1' ? { ...config, tools: [] } : config);
  if (process.env.FAKE_PI_NO_STATUS !== '1') {
    const status = {
      schemaVersion: 1,
      piVersion: '0.73.1-fake',
      tools: bridge.tools.map(({ name, server, tool }) => ({ name, server, tool })),
      errors: bridge.errors,
    };
    write({
      type: 'extension_ui_request',
      id: 'status-1',
      method: 'setStatus',
      statusKey: PI_BRIDGE_STATUS_KEY,
      statusText: JSON.stringify(status),
    });
  }
  let buffer = '';
  let queue = Promise.resolve();
  process.stdin.on('data', (chunk) => {
    buffer += chunk;
    for (let nl = buffer.indexOf('\n'); nl !== -1; nl = buffer.indexOf('\n')) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      const command = JSON.parse(line);
      if (process.env.FAKE_PI_SILENT === '1') continue;
      if (command.type === 'abort') {
        turn?.abort();
        write({ id: command.id, type: 'response', command: 'abort', success: true });
      } else if (command.type === 'get_state') {
        const model = { id: modelId, name: modelId, api: 'openai-completions', provider };
        write({
          id: command.id,
          type: 'response',
          command: 'get_state',
          success: true,
          data: { model, thinkingLevel: 'off', isStreaming: false, sessionId, messageCount: 0 },
        });
      } else if (command.type === 'prompt') {
        queue = queue.then(() => prompt(command.id, command.message));
      } else {
        write({
          id: command.id,
          type: 'response',
          command: command.type,
          success: false,
          error: `Unknown command: ${command.type}`,
        });
      }
    }
  });
  process.stdin.on('end', () => {
    if (stubborn) return;
    void queue.then(() => bridge.close()).then(() => process.exit(0));
  });
}

main().catch((error) => {
  process.stderr.write(`fake-pi failed: ${error.stack}\n`);
  process.exit(1);
});
