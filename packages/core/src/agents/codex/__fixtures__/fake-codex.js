#!/usr/bin/env node
// A stand-in for `codex app-server` (0.171.0) for the codex harness tests: JSON-RPC over stdio in
// the shapes of the recorded session beside it (codex-0.171.0-app-server.ndjson), MCP servers from
// $CODEX_HOME/config.toml really connected with the MCP SDK (so calls cross the capture proxy, with
// `_meta.callId` = the mcpToolCall item id, as Codex does). No model: each prompt is a script, one
// directive a line:
//   call <server>:<tool> <json args>   call a tool the config offers (enabled_tools respected)
//   force-call <server>:<tool> <json>  call it even when the config does not offer it
//   ask-approval                       ask the client (mcpServer/elicitation/request) before each call
//   reason: <text> | hidden-reasoning  a reasoning item, visible or with no text
//   say: <text>                        the answer (default: "done" and the tool results)
//   check-key                          answer whether the provider's env_key variable is set (never its value)
//   stall                              never finish the turn (until turn/interrupt)
//   fail: <message>                    end the turn failed
//   exit <code>                        exit mid-turn
// FAKE_CODEX_MODEL=1 makes it model-driven instead (no script): each turn asks the model of its
// config's provider at `<base_url>/responses` (OpenAI Responses, streamed, `Authorization: Bearer`
// from the provider's env_key, the thread's cwd in an environment_context message, the thread id as
// prompt_cache_key) as Codex does, calls each function_call `mcp__<server>__<tool>` on its MCP
// server, sends the function_call_output back, and ends with the model's text; an HTTP error fails the turn.
// Env: FAKE_CODEX_NO_USAGE=1 (no thread/tokenUsage/updated), FAKE_CODEX_IGNORE_SIGTERM=1 (ignore
// SIGTERM, turn/interrupt and the end of stdin).
'use strict';
const { randomUUID } = require('node:crypto');
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const { readCodexConfig } = require('./fakeCodexConfig');
const { FakeCodexMcp } = require('./fakeCodexMcp');
const { postModel } = require('../../native/__fixtures__/modelHttp');
const { readResponsesStream } = require('../../native/__fixtures__/responsesStream');

const VERSION = '0.171.0';
const stubborn = process.env.FAKE_CODEX_IGNORE_SIGTERM === '1';
if (stubborn) {
  process.on('SIGTERM', () => undefined);
  setInterval(() => undefined, 1000); // stays up when stdin and its MCP servers are gone
}

/** The recorded frames, as templates: the first frame matching `pick`. */
const recorded = readFileSync(join(__dirname, 'codex-0.171.0-app-server.ndjson'), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l).frame);
const template = (pick) => JSON.parse(JSON.stringify(recorded.find(pick)));
const itemTemplate = (type) =>
  template((f) => f.method === 'item/completed' && f.params.item.type === type).params.item;

const codexHome = process.env.CODEX_HOME ?? join(process.env.HOME ?? '/', '.codex');
const config = readCodexConfig(join(codexHome, 'config.toml'));
const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
const notify = (method, params) => send({ method, params });
const now = () => Date.now();

let threadId = null;
let threadCwd = process.cwd();
/** The conversation sent to the model, across the turns of the thread (model-driven mode). */
const history = [];
const modelDriven = process.env.FAKE_CODEX_MODEL === '1';
let clientName = 'client';
const usage = {
  totalTokens: 0,
  inputTokens: 0,
  cachedInputTokens: 0,
  cacheWriteInputTokens: 0,
  outputTokens: 0,
  reasoningOutputTokens: 0,
};
const answers = new Map();
const mcp = new FakeCodexMcp({
  config,
  version: VERSION,
  send,
  notify,
  template,
  itemTemplate,
  answers,
  thread: () => threadId,
});
let interrupt = null;

function emitItem(turnId, item, started = true) {
  if (started)
    notify('item/started', {
      item: {
        ...item,
        status: item.type === 'mcpToolCall' ? 'inProgress' : item.status,
        result: item.type === 'mcpToolCall' ? null : item.result,
        completedAtMs: null,
      },
      threadId,
      turnId,
      startedAtMs: now(),
    });
  notify('item/completed', { item, threadId, turnId, contentTokenCount: null, completedAtMs: now() });
}

function addUsage(turnId, input, output) {
  Object.assign(usage, {
    inputTokens: usage.inputTokens + input,
    outputTokens: usage.outputTokens + output,
    cachedInputTokens: usage.cachedInputTokens + 10,
    reasoningOutputTokens: usage.reasoningOutputTokens + 5,
  });
  usage.totalTokens = usage.inputTokens + usage.outputTokens;
  if (process.env.FAKE_CODEX_NO_USAGE === '1') return;
  const last = {
    totalTokens: input + output,
    inputTokens: input,
    cachedInputTokens: 10,
    cacheWriteInputTokens: 0,
    outputTokens: output,
    reasoningOutputTokens: 5,
  };
  notify('thread/tokenUsage/updated', {
    threadId,
    turnId,
    tokenUsage: { total: { ...usage }, last, modelContextWindow: 272000 },
  });
}

function completeTurn(turn, status, error = null) {
  notify('turn/completed', {
    threadId,
    turn: {
      ...turn,
      status,
      error,
      items: [],
      itemsView: 'notLoaded',
      completedAt: Math.floor(now() / 1000),
      durationMs: 1,
    },
  });
}

async function runTurn(turn, prompt) {
  const lines = prompt
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  const user = itemTemplate('userMessage');
  emitItem(turn.id, {
    ...user,
    id: randomUUID(),
    content: [{ type: 'text', text: prompt, text_elements: [] }],
    startedAtMs: now(),
    completedAtMs: now(),
  });
  const approvals = lines.includes('ask-approval');
  const results = [];
  let answer;
  for (const line of lines) {
    if (/^(force-)?call\s/.test(line)) {
      results.push(await mcp.callTool(turn.id, line, approvals));
      addUsage(turn.id, 100, 20);
    } else if (line.startsWith('reason:') || line === 'hidden-reasoning') {
      const text = line === 'hidden-reasoning' ? [] : [line.slice(7).trim()];
      emitItem(turn.id, {
        ...itemTemplate('reasoning'),
        id: `rs_${randomUUID()}`,
        summary: text,
        content: [],
        startedAtMs: now(),
        completedAtMs: now(),
      });
    } else if (line === 'check-key') {
      const provider = config.model_providers?.[config.model_provider] ?? {};
      const name = provider.env_key;
      answer = name === undefined ? 'no env_key' : `${name} is ${process.env[name] ? 'set' : 'unset'}`;
    } else if (line.startsWith('say:')) {
      answer = line.slice(4).trim();
    } else if (line === 'stall') {
      const id = randomUUID();
      notify('item/agentMessage/delta', { threadId, turnId: turn.id, itemId: id, delta: 'thinking' });
      await new Promise((resolve) => (interrupt = resolve));
      return completeTurn(turn, 'interrupted');
    } else if (line.startsWith('fail:')) {
      return completeTurn(turn, 'failed', {
        message: line.slice(5).trim(),
        codexErrorInfo: null,
        additionalDetails: null,
      });
    } else if (line.startsWith('exit')) {
      process.exit(Number(line.slice(4).trim() || '3'));
    }
  }
  const text = answer ?? ['done', ...results].join('\n');
  const id = `msg_${randomUUID()}`;
  notify('item/agentMessage/delta', { threadId, turnId: turn.id, itemId: id, delta: text });
  emitItem(turn.id, { ...itemTemplate('agentMessage'), id, text, startedAtMs: now(), completedAtMs: now() });
  addUsage(turn.id, 50, 10);
  completeTurn(turn, 'completed');
}

/** The provider of config.toml: where and with which key the model is asked. */
function modelEndpoint() {
  const provider = config.model_providers?.[config.model_provider] ?? {};
  const key = provider.env_key !== undefined ? process.env[provider.env_key] : undefined;
  return {
    url: `${(provider.base_url ?? 'https://api.openai.com/v1').replace(/\/$/, '')}/responses`,
    headers: {
      ...(key !== undefined && { authorization: `Bearer ${key}` }),
      accept: 'text/event-stream',
      originator: 'codex_cli_rs',
      session_id: threadId,
      version: VERSION,
    },
  };
}

/** One model-driven turn: model → function_call → MCP call → function_call_output → ... → the model's text. */
async function modelTurn(turn, prompt) {
  emitItem(turn.id, {
    ...itemTemplate('userMessage'),
    id: randomUUID(),
    content: [{ type: 'text', text: prompt, text_elements: [] }],
    startedAtMs: now(),
    completedAtMs: now(),
  });
  if (history.length === 0) {
    const context = `<environment_context>\n  <cwd>${threadCwd}</cwd>\n  <approval_policy>${config.approval_policy ?? 'never'}</approval_policy>\n  <sandbox_mode>${config.sandbox_mode ?? 'read-only'}</sandbox_mode>\n</environment_context>`;
    history.push({ type: 'message', role: 'user', content: [{ type: 'input_text', text: context }] });
  }
  history.push({ type: 'message', role: 'user', content: [{ type: 'input_text', text: prompt }] });
  const { url, headers } = modelEndpoint();
  for (let round = 0; round < 10; round++) {
    let response;
    try {
      const http = await postModel(url, headers, {
        model: config.model,
        instructions: 'You are Codex, based on GPT-5. You are running as a coding agent in the Codex CLI.',
        input: history,
        tools: mcp.functionTools(),
        tool_choice: 'auto',
        parallel_tool_calls: false,
        reasoning: null,
        store: false,
        stream: true,
        include: [],
        prompt_cache_key: threadId,
      });
      response = await readResponsesStream(http);
    } catch (error) {
      const message = error.status !== undefined ? `unexpected status ${error.status}: ${error.body}` : error.message;
      notify('error', {
        error: { message, codexErrorInfo: null, additionalDetails: null },
        willRetry: false,
        threadId,
        turnId: turn.id,
      });
      return completeTurn(turn, 'failed', { message, codexErrorInfo: null, additionalDetails: null });
    }
    const usageOf = response.usage ?? {};
    addUsage(turn.id, usageOf.input_tokens ?? 0, usageOf.output_tokens ?? 0);
    const calls = response.output.filter((item) => item.type === 'function_call');
    const text = response.output
      .filter((item) => item.type === 'message')
      .flatMap((item) => item.content.map((part) => part.text ?? part.refusal ?? ''))
      .join('');
    history.push(...response.output);
    if (calls.length === 0) {
      const id = `msg_${randomUUID()}`;
      notify('item/agentMessage/delta', { threadId, turnId: turn.id, itemId: id, delta: text });
      emitItem(turn.id, { ...itemTemplate('agentMessage'), id, text, startedAtMs: now(), completedAtMs: now() });
      return completeTurn(turn, 'completed');
    }
    for (const call of calls) {
      const name = call.namespace ? `${call.namespace}__${call.name}` : call.name;
      const [, server, tool] = /^mcp__(.+?)__(.+)$/.exec(name) ?? [];
      const args = JSON.parse(call.arguments || '{}');
      const outcome =
        server === undefined
          ? { text: `unsupported call: ${name}`, ok: false }
          : await mcp.callNamed(turn.id, server, tool, args);
      history.push({ type: 'function_call_output', call_id: call.call_id, output: outcome.text });
    }
  }
  return completeTurn(turn, 'failed', {
    message: 'stopped after 10 model rounds',
    codexErrorInfo: null,
    additionalDetails: null,
  });
}

async function handle(message) {
  const { id, method, params } = message;
  if (method === undefined) return answers.get(id)?.(message.result);
  if (method === 'initialize') {
    clientName = params.clientInfo.name;
    const result = template((f) => f.id === 1 && f.result?.userAgent !== undefined).result;
    return send({
      id,
      result: {
        ...result,
        userAgent: `${clientName}/${VERSION} (fake-codex) (${clientName}; ${params.clientInfo.version})`,
        codexHome,
      },
    });
  }
  if (method === 'initialized') return undefined;
  if (method === 'thread/start') {
    threadId = randomUUID();
    const result = template((f) => f.result?.thread !== undefined).result;
    Object.assign(result.thread, {
      id: threadId,
      sessionId: threadId,
      cwd: params.cwd,
      ephemeral: params.ephemeral === true,
    });
    Object.assign(result, {
      model: params.model ?? config.model,
      modelProvider: config.model_provider ?? 'openai',
      cwd: params.cwd,
    });
    threadCwd = params.cwd ?? threadCwd;
    result.thread.environments = [{ environmentId: 'local', cwd: params.cwd, runtimeWorkspaceRoots: [params.cwd] }];
    send({ id, result });
    notify('thread/started', { thread: result.thread });
    return mcp.connectServers();
  }
  if (method === 'turn/start') {
    const turn = { ...template((f) => f.result?.turn !== undefined).result.turn, id: randomUUID() };
    turn.rootTurnId = turn.id;
    send({ id, result: { turn } });
    notify('turn/started', { threadId, turn: { ...turn, startedAt: Math.floor(now() / 1000) } });
    const prompt = params.input.map((i) => i.text ?? '').join('\n');
    return modelDriven ? modelTurn(turn, prompt) : runTurn(turn, prompt);
  }
  if (method === 'turn/interrupt') {
    if (stubborn) return undefined;
    send({ id, result: {} });
    return interrupt?.();
  }
  return send({ id, error: { code: -32601, message: `fake-codex does not know ${method}` } });
}

let buffer = '';
process.stdin.on('data', (chunk) => {
  buffer += chunk;
  for (let nl = buffer.indexOf('\n'); nl !== -1; nl = buffer.indexOf('\n')) {
    const line = buffer.slice(0, nl);
    buffer = buffer.slice(nl + 1);
    if (line.trim() !== '')
      void handle(JSON.parse(line)).catch((error) => process.stderr.write(`fake-codex: ${error.stack}\n`));
  }
});
process.stdin.on('end', () => {
  if (!stubborn) process.exit(0);
});
