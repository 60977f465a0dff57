#!/usr/bin/env node
// A stand-in for `opencode serve` (1.18): the subset of its HTTP API the opencode harness uses, in
// the shapes recorded from the real server (opencode-1.18.33-recorded.json). It reads the config
// file (OPENCODE_CONFIG), really connects to its `mcp` servers with the MCP SDK (so calls cross
// the capture proxy), offers `<server>_<tool>` names (sanitized as OpenCode does) filtered by the config's `tools` map (last
// matching entry wins, as OpenCode's permission rules), and checks basic auth when
// OPENCODE_SERVER_PASSWORD is set.
//
// A prompt that is a JSON object is a script: { calls: [{ tool, arguments }], reply, reasoning,
// hang: true (wait for abort), exit: <code> (exit after the calls), error: '<name>' (end the turn
// with info.error), echo: 'config' | 'env' (reply with the config file / the env names) }.
// Anything else is answered `ok: <prompt>`. `GET /event` streams message.updated and
// message.part.updated (a tool part `running` before its call). Env: FAKE_OPENCODE_NO_EVENTS=1
// (no event stream: 404), FAKE_OPENCODE_NO_USAGE=1 (no tokens or cost),
// FAKE_OPENCODE_IGNORE_SIGTERM=1, FAKE_OPENCODE_EXIT_AT_START=<code> (exit before listening).
// FAKE_OPENCODE_MODEL=1 makes it model-driven instead (no script): each prompt asks the model of
// the config's provider at `<options.baseURL>/chat/completions` (Chat Completions, streamed, the
// `{env:NAME}` key as a bearer token, the session's directory in the system prompt) as OpenCode's
// openai-compatible provider does, runs each tool call on its MCP server (a step per model answer,
// a tool part per call), sends the results back, and ends with the model's text; an HTTP error
// ends the turn with an APIError.
'use strict';

const { createServer } = require('node:http');
const { readFileSync } = require('node:fs');
const { randomBytes } = require('node:crypto');

const { postModel } = require('../../native/__fixtures__/modelHttp');
const { readChatCompletionsStream } = require('../../native/__fixtures__/chatCompletionsStream');
// The MCP SDK client, required on first use.
const sdk = require('../../native/__fixtures__/lazyMcpClientSdk');

const VERSION = '1.18.33-fake';
const env = process.env;
const id = (prefix) => `${prefix}_${randomBytes(9).toString('hex')}`;
const delay = (ms) => new Promise((r) => setTimeout(r, ms));

if (env.FAKE_OPENCODE_IGNORE_SIGTERM === '1') process.on('SIGTERM', () => undefined);
if (env.FAKE_OPENCODE_EXIT_AT_START) process.exit(Number(env.FAKE_OPENCODE_EXIT_AT_START));

const argv = process.argv.slice(2);
if (argv[0] !== 'serve') {
  process.stderr.write(`fake-opencode: only 'serve' is supported, got ${argv.join(' ')}\n`);
  process.exit(2);
}
const option = (name, fallback) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : fallback);
const hostname = option('--hostname', '127.0.0.1');
const port = Number(option('--port', '0'));
const configText = readFileSync(env.OPENCODE_CONFIG, 'utf8');
const config = JSON.parse(configText);

/** OpenCode's `tools` map as its permission rules read it: the last entry matching a name wins. */
function enabled(name) {
  let on = true;
  for (const [pattern, value] of Object.entries(config.tools ?? {})) {
    const re = new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);
    if (re.test(name)) on = value === true;
  }
  return on;
}

/** One connection per `mcp` entry: a local command or a remote URL. */
async function connect(name, entry) {
  const transport =
    entry.type === 'remote'
      ? new sdk.StreamableHTTPClientTransport(new URL(entry.url), { requestInit: { headers: entry.headers ?? {} } })
      : new sdk.StdioClientTransport({
          command: entry.command[0],
          args: entry.command.slice(1),
          env: { ...env, ...(entry.environment ?? {}) },
          stderr: 'ignore',
        });
  const client = new sdk.Client({ name: 'opencode', version: VERSION }, { capabilities: {} });
  await client.connect(transport);
  const { tools } = await client.listTools();
  return { name, client, tools: tools.map((t) => t.name), definitions: tools };
}

const sessions = new Map();
/** Open `GET /event` streams; every change of a message is sent to them (as message.updated / message.part.updated). */
const streams = new Set();
function publish(type, properties) {
  const data = `data: ${JSON.stringify({ id: id('evt'), type, properties })}\n\n`;
  for (const res of streams) res.write(data);
}
/** OpenCode's tool names: `<server>_<tool>`, both with anything but [A-Za-z0-9_-] as `_`. */
const sanitize = (name) => name.replace(/[^a-zA-Z0-9_-]/g, '_');
const toolName = (server, tool) => `${sanitize(server)}_${sanitize(tool)}`;

function tokens() {
  return env.FAKE_OPENCODE_NO_USAGE === '1'
    ? {}
    : { cost: 0.0015, tokens: { total: 15, input: 10, output: 5, reasoning: 2, cache: { read: 0, write: 0 } } };
}

function assistant(session, parent, model, parts, extra, mid = id('msg')) {
  const info = {
    id: mid,
    sessionID: session.id,
    role: 'assistant',
    time: { created: Date.now(), completed: Date.now() },
    parentID: parent,
    modelID: model.modelID,
    providerID: model.providerID,
    mode: 'build',
    agent: 'build',
    path: { cwd: session.directory, root: '/' },
    ...tokens(),
    ...extra,
  };
  const message = { info, parts: parts.map((p) => ({ id: id('prt'), sessionID: session.id, messageID: mid, ...p })) };
  session.messages.push(message);
  for (const part of message.parts) publish('message.part.updated', { sessionID: session.id, part });
  publish('message.updated', { sessionID: session.id, info });
  return message;
}

/** Runs one scripted turn; resolves the last assistant message (as POST /session/{id}/message answers). */
async function runTurn(session, body, servers) {
  const model = body.model ?? { providerID: 'opencode', modelID: 'big-pickle' };
  const text = body.parts.map((p) => p.text ?? '').join('');
  const user = { info: { id: id('msg'), sessionID: session.id, role: 'user', time: { created: Date.now() }, model } };
  user.parts = [{ id: id('prt'), sessionID: session.id, messageID: user.info.id, type: 'text', text }];
  session.messages.push(user);
  if (env.FAKE_OPENCODE_MODEL === '1') return modelTurn(session, user, model, text, servers);
  let script;
  try {
    script = JSON.parse(text);
  } catch {
    script = null;
  }
  if (script === null || typeof script !== 'object') {
    return assistant(session, user.info.id, model, [{ type: 'text', text: `ok: ${text}` }], { finish: 'stop' });
  }
  const offered = servers.flatMap((s) => s.tools.map((t) => toolName(s.name, t))).filter(enabled);
  for (const call of script.calls ?? []) {
    const parts = [{ type: 'step-start' }];
    if (script.reasoning) parts.push({ type: 'reasoning', text: script.reasoning, time: { start: Date.now() } });
    const callID = `call_${++session.calls}`;
    const mid = id('msg');
    const partId = id('prt');
    const live = {
      id: mid,
      sessionID: session.id,
      role: 'assistant',
      time: { created: Date.now() },
      parentID: user.info.id,
    };
    publish('message.updated', { sessionID: session.id, info: live });
    const server = offered.includes(call.tool)
      ? servers.find((s) => s.tools.some((t) => toolName(s.name, t) === call.tool))
      : undefined;
    const input = call.arguments ?? {};
    let state;
    const running = { status: 'running', input, time: { start: Date.now() } };
    const base = { id: partId, sessionID: session.id, messageID: mid, type: 'tool', callID, tool: call.tool };
    publish('message.part.updated', { sessionID: session.id, part: { ...base, state: running } });
    if (server === undefined) {
      const error = `Model tried to call unavailable tool 'invalid'. Available tools: ${offered.join(', ')}.`;
      state = { status: 'error', input, error, time: { start: Date.now(), end: Date.now() } };
    } else {
      try {
        const result = await server.client.callTool({
          name: call.tool.slice(server.name.length + 1),
          arguments: input,
        });
        const output = (result.content ?? []).map((c) => c.text ?? '').join('\n');
        state = result.isError
          ? { status: 'error', input, error: output, time: { start: Date.now(), end: Date.now() } }
          : {
              status: 'completed',
              input,
              output,
              title: '',
              metadata: {},
              time: { start: Date.now(), end: Date.now() },
            };
      } catch (error) {
        state = { status: 'error', input, error: String(error.message), time: { start: Date.now(), end: Date.now() } };
      }
    }
    parts.push({ ...base, state });
    parts.push({ type: 'step-finish', reason: 'tool-calls', ...tokens() });
    assistant(session, user.info.id, model, parts, { finish: 'tool-calls' }, mid);
  }
  if (typeof script.exit === 'number') process.exit(script.exit);
  if (script.hang) {
    await new Promise((resolve) => (session.abort = resolve));
    const aborted = { error: { name: 'MessageAbortedError', data: { message: 'Aborted' } } };
    const message = assistant(session, user.info.id, model, [], aborted);
    delete message.info.cost;
    message.info.tokens = { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } };
    if (env.FAKE_OPENCODE_NO_USAGE === '1') delete message.info.tokens;
    return message;
  }
  const reply =
    script.echo === 'config'
      ? configText
      : script.echo === 'env'
        ? Object.keys(env).sort().join(',')
        : (script.reply ?? 'done');
  const extra = script.error
    ? { error: { name: script.error, data: { message: `scripted ${script.error}`, isRetryable: false } } }
    : { finish: 'stop' };
  const parts = [{ type: 'step-start' }, { type: 'text', text: reply }];
  return assistant(session, user.info.id, model, parts, extra);
}

/** Where the provider is served and with which key (`{env:NAME}` read from the environment). */
function providerEndpoint(providerID) {
  const options = config.provider?.[providerID]?.options ?? {};
  const key = String(options.apiKey ?? '').replace(/^\{env:([^}]+)\}$/, (_, name) => env[name] ?? '');
  return { url: `${String(options.baseURL ?? 'https://api.openai.com/v1').replace(/\/$/, '')}/chat/completions`, key };
}

/** The enabled MCP tools as Chat Completions function tools (`<server>_<tool>`), with the tool of each name. */
function chatTools(servers) {
  const byName = new Map();
  for (const server of servers)
    for (const tool of server.definitions) {
      const name = toolName(server.name, tool.name);
      if (enabled(name)) byName.set(name, { server, tool: tool.name, definition: tool });
    }
  const tools = [...byName].map(([name, { definition }]) => ({
    type: 'function',
    function: { name, description: definition.description ?? '', parameters: definition.inputSchema },
  }));
  return { tools, byName };
}

/** One model-driven turn: model → tool calls → MCP calls → tool messages → ... → the model's text. */
async function modelTurn(session, user, model, text, servers) {
  session.history ??= [
    {
      role: 'system',
      content: `You are opencode, an interactive CLI tool that helps users with software engineering tasks.\n<env>\n  Working directory: ${session.directory}\n  Platform: ${process.platform}\n</env>`,
    },
  ];
  session.history.push({ role: 'user', content: text });
  const { url, key } = providerEndpoint(model.providerID);
  const { tools, byName } = chatTools(servers);
  for (let round = 0; round < 10; round++) {
    let answer;
    try {
      const response = await postModel(
        url,
        {
          ...(key !== '' && { authorization: `Bearer ${key}` }),
          'user-agent': `opencode/${VERSION} ai-sdk/provider-utils`,
        },
        {
          model: model.modelID,
          messages: session.history,
          tools,
          tool_choice: 'auto',
          stream: true,
          stream_options: { include_usage: true },
        },
      );
      answer = await readChatCompletionsStream(response);
    } catch (error) {
      const failure = {
        error: {
          name: 'APIError',
          data: { message: String(error.body ?? error.message), statusCode: error.status, isRetryable: false },
        },
      };
      return assistant(session, user.info.id, model, [], failure);
    }
    const usage = answer.usage ?? {};
    const spent = {
      cost: 0,
      tokens: {
        total: (usage.prompt_tokens ?? 0) + (usage.completion_tokens ?? 0),
        input: usage.prompt_tokens ?? 0,
        output: usage.completion_tokens ?? 0,
        reasoning: 0,
        cache: { read: 0, write: 0 },
      },
    };
    if (answer.toolCalls.length === 0) {
      session.history.push({ role: 'assistant', content: answer.text });
      const parts = [
        { type: 'step-start' },
        { type: 'text', text: answer.text },
        { type: 'step-finish', reason: 'stop', ...spent },
      ];
      return assistant(session, user.info.id, model, parts, { finish: 'stop', ...spent });
    }
    session.history.push({
      role: 'assistant',
      content: answer.text === '' ? null : answer.text,
      tool_calls: answer.toolCalls.map((c) => ({
        id: c.id,
        type: 'function',
        function: { name: c.name, arguments: c.arguments },
      })),
    });
    const mid = id('msg');
    const parts = [{ type: 'step-start' }];
    if (answer.text !== '') parts.push({ type: 'text', text: answer.text });
    publish('message.updated', {
      sessionID: session.id,
      info: {
        id: mid,
        sessionID: session.id,
        role: 'assistant',
        time: { created: Date.now() },
        parentID: user.info.id,
      },
    });
    for (const call of answer.toolCalls) {
      const input = call.arguments === '' ? {} : JSON.parse(call.arguments);
      const base = {
        id: id('prt'),
        sessionID: session.id,
        messageID: mid,
        type: 'tool',
        callID: call.id,
        tool: call.name,
      };
      publish('message.part.updated', {
        sessionID: session.id,
        part: { ...base, state: { status: 'running', input, time: { start: Date.now() } } },
      });
      const target = byName.get(call.name);
      let state;
      if (target === undefined) {
        const error = `Model tried to call unavailable tool '${call.name}'. Available tools: ${[...byName.keys()].join(', ')}.`;
        state = { status: 'error', input, error, time: { start: Date.now(), end: Date.now() } };
      } else {
        try {
          const result = await target.server.client.callTool({ name: target.tool, arguments: input });
          const output = (result.content ?? []).map((c) => c.text ?? '').join('\n');
          state = result.isError
            ? { status: 'error', input, error: output, time: { start: Date.now(), end: Date.now() } }
            : {
                status: 'completed',
                input,
                output,
                title: '',
                metadata: {},
                time: { start: Date.now(), end: Date.now() },
              };
        } catch (error) {
          state = {
            status: 'error',
            input,
            error: String(error.message),
            time: { start: Date.now(), end: Date.now() },
          };
        }
      }
      parts.push({ ...base, state });
      session.history.push({ role: 'tool', tool_call_id: call.id, content: state.output ?? state.error });
    }
    parts.push({ type: 'step-finish', reason: 'tool-calls', ...spent });
    assistant(session, user.info.id, model, parts, { finish: 'tool-calls', ...spent }, mid);
  }
  return assistant(session, user.info.id, model, [{ type: 'text', text: 'stopped after 10 model rounds' }], {
    finish: 'stop',
  });
}

function readJson(req) {
  return new Promise((resolve) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => resolve(raw === '' ? {} : JSON.parse(raw)));
  });
}

async function main() {
  const servers = [];
  for (const [name, entry] of Object.entries(config.mcp ?? {})) {
    if (entry.enabled !== false) servers.push(await connect(name, entry));
  }
  const expected = env.OPENCODE_SERVER_PASSWORD
    ? `Basic ${Buffer.from(`opencode:${env.OPENCODE_SERVER_PASSWORD}`).toString('base64')}`
    : undefined;
  const server = createServer(async (req, res) => {
    const send = (status, value) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(value));
    };
    if (expected !== undefined && req.headers.authorization !== expected) return send(401, { error: 'Unauthorized' });
    const url = new URL(req.url, 'http://x');
    const m = /^\/session\/([^/]+)\/(message|abort)$/.exec(url.pathname);
    const session = m ? sessions.get(m[1]) : undefined;
    if (req.method === 'GET' && url.pathname === '/global/health')
      return send(200, { healthy: true, version: VERSION });
    if (req.method === 'GET' && url.pathname === '/mcp') {
      return send(200, Object.fromEntries(servers.map((s) => [s.name, { status: 'connected' }])));
    }
    if (req.method === 'GET' && url.pathname === '/event' && env.FAKE_OPENCODE_NO_EVENTS !== '1') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.write(`data: ${JSON.stringify({ id: id('evt'), type: 'server.connected', properties: {} })}\n\n`);
      streams.add(res);
      req.on('close', () => streams.delete(res));
      return undefined;
    }
    if (req.method === 'POST' && url.pathname === '/global/dispose') {
      await Promise.all(servers.splice(0).map((s) => s.client.close().catch(() => undefined)));
      return send(200, true);
    }
    if (req.method === 'POST' && url.pathname === '/session') {
      await readJson(req);
      const directory = String(req.headers['x-opencode-directory'] ?? process.cwd());
      const s = { id: id('ses'), directory, messages: [], calls: 0, abort: undefined };
      sessions.set(s.id, s);
      return send(200, { id: s.id, slug: 'fake', projectID: 'global', directory, version: VERSION, cost: 0 });
    }
    if (m && session === undefined) return send(404, { name: 'NotFoundError', data: { message: 'no such session' } });
    if (m && req.method === 'GET' && m[2] === 'message') {
      const limit = Number(url.searchParams.get('limit') ?? 0);
      return send(200, limit > 0 ? session.messages.slice(-limit) : session.messages);
    }
    if (m && req.method === 'POST' && m[2] === 'message')
      return send(200, await runTurn(session, await readJson(req), servers));
    if (m && req.method === 'POST' && m[2] === 'abort') {
      session.abort?.();
      await delay(20);
      return send(200, true);
    }
    return send(404, { name: 'NotFoundError', data: { message: `${req.method} ${url.pathname}` } });
  });
  server.listen(port, hostname, () => {
    if (!env.OPENCODE_SERVER_PASSWORD)
      process.stdout.write('Warning: OPENCODE_SERVER_PASSWORD is not set; server is unsecured.\n');
    process.stdout.write(`opencode server listening on http://${hostname}:${server.address().port}\n`);
  });
}

main().catch((error) => {
  process.stderr.write(`fake-opencode: ${error.stack}\n`);
  process.exit(1);
});
