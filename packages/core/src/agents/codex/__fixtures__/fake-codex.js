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
// Env: FAKE_CODEX_NO_USAGE=1 (no thread/tokenUsage/updated), FAKE_CODEX_IGNORE_SIGTERM=1 (ignore
// SIGTERM, turn/interrupt and the end of stdin).
'use strict';
const { randomUUID } = require('node:crypto');
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = require('@modelcontextprotocol/sdk/client/stdio.js');
const { StreamableHTTPClientTransport } = require('@modelcontextprotocol/sdk/client/streamableHttp.js');
const { readCodexConfig } = require('./fakeCodexConfig');

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
let clientName = 'client';
const servers = new Map(); // name -> { client, tools: Set<string> }
const usage = {
  totalTokens: 0,
  inputTokens: 0,
  cachedInputTokens: 0,
  cacheWriteInputTokens: 0,
  outputTokens: 0,
  reasoningOutputTokens: 0,
};
let pendingRequest = 0;
const answers = new Map();
let interrupt = null;

async function connectServers() {
  for (const [name, entry] of Object.entries(config.mcp_servers ?? {})) {
    notify('mcpServer/startupStatus/updated', {
      threadId,
      name,
      environmentId: null,
      status: 'starting',
      error: null,
      failureReason: null,
    });
    try {
      const transport =
        entry.url !== undefined
          ? new StreamableHTTPClientTransport(new URL(entry.url), {
              requestInit: { headers: entry.http_headers ?? {} },
            })
          : new StdioClientTransport({
              command: entry.command,
              args: entry.args ?? [],
              env: { ...process.env, ...(entry.env ?? {}) },
              stderr: 'ignore',
            });
      const client = new Client({ name: 'codex-mcp-client', title: 'Codex', version: VERSION });
      await client.connect(transport);
      const listed = (await client.listTools()).tools.map((t) => t.name);
      const enabled =
        entry.enabled_tools === undefined ? listed : listed.filter((t) => entry.enabled_tools.includes(t));
      servers.set(name, { client, tools: new Set(enabled) });
      notify('mcpServer/startupStatus/updated', {
        threadId,
        name,
        environmentId: null,
        status: 'ready',
        error: null,
        failureReason: null,
      });
    } catch (error) {
      notify('mcpServer/startupStatus/updated', {
        threadId,
        name,
        environmentId: null,
        status: 'failed',
        error: `MCP client for \`${name}\` failed to start: ${error.message}`,
        failureReason: null,
      });
    }
  }
}

/** Asks the client to approve a call the way Codex does with approval mode "prompt". */
function askApproval(turnId, server, tool, args) {
  const id = pendingRequest++;
  const request = template((f) => f.method === 'mcpServer/elicitation/request');
  Object.assign(request.params, {
    threadId,
    turnId,
    serverName: server,
    message: `Allow the ${server} MCP server to run tool "${tool}"?`,
  });
  Object.assign(request.params._meta, { tool_name: tool, tool_params: args, tool_params_display: [] });
  request.id = id;
  send(request);
  return new Promise((resolve) => answers.set(id, (result) => resolve(result?.action === 'accept')));
}

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

async function callTool(turnId, directive, approvals) {
  const [, force, server, tool, json] = directive.match(/^(force-)?call\s+([^:\s]+):(\S+)\s*(.*)$/);
  const args = json.trim() === '' ? {} : JSON.parse(json);
  const entry = servers.get(server);
  if (entry === undefined || (!force && !entry.tools.has(tool))) return `${tool}: not offered`;
  if (approvals && !(await askApproval(turnId, server, tool, args))) return `${tool}: declined`;
  const item = {
    ...itemTemplate('mcpToolCall'),
    id: `exec-${randomUUID()}`,
    server,
    tool,
    arguments: args,
    startedAtMs: now(),
  };
  notify('item/started', {
    item: { ...item, status: 'inProgress', result: null, error: null, durationMs: null, completedAtMs: null },
    threadId,
    turnId,
    startedAtMs: now(),
  });
  let text;
  try {
    const result = await entry.client.callTool({
      name: tool,
      arguments: args,
      _meta: { callId: item.id, threadId, sessionId: threadId },
    });
    Object.assign(item, { status: 'completed', result: { ...result, _meta: result._meta ?? null }, error: null });
    text = result.content?.map((c) => c.text ?? '').join('') ?? '';
  } catch (error) {
    Object.assign(item, { status: 'failed', result: null, error: { message: error.message } });
    text = `error ${error.message}`;
  }
  notify('item/completed', {
    item: { ...item, durationMs: 1, completedAtMs: now() },
    threadId,
    turnId,
    contentTokenCount: null,
    completedAtMs: now(),
  });
  return `${tool}: ${text}`;
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
      results.push(await callTool(turn.id, line, approvals));
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
    result.thread.environments = [{ environmentId: 'local', cwd: params.cwd, runtimeWorkspaceRoots: [params.cwd] }];
    send({ id, result });
    notify('thread/started', { thread: result.thread });
    return connectServers();
  }
  if (method === 'turn/start') {
    const turn = { ...template((f) => f.result?.turn !== undefined).result.turn, id: randomUUID() };
    turn.rootTurnId = turn.id;
    send({ id, result: { turn } });
    notify('turn/started', { threadId, turn: { ...turn, startedAt: Math.floor(now() / 1000) } });
    return runTurn(turn, params.input.map((i) => i.text ?? '').join('\n'));
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
