#!/usr/bin/env node
// A stand-in for `claude -p --input-format stream-json --output-format stream-json` (Claude Code
// 2.1.44), writing the message shapes recorded from the real CLI (claude-code-2.1.44.sample.ndjson):
// `system`/`init` per turn, one `assistant` line per content block, `user` tool results, `result`.
// It reads its --mcp-config and really calls the servers (stdio or HTTP) with the MCP SDK, sending
// `_meta["claudecode/toolUseId"]` as the real CLI does; --allowedTools with --permission-mode
// dontAsk refuse other tools as the CLI does. Scripted by the prompt text:
//   call:<tool>{json}  a tool_use of <tool> on whichever server offers it (several allowed)
//   [think]            thinking and redacted_thinking blocks first
//   [stall]            writes a text block, then waits (for an interrupt, or forever)
//   [exit]             writes a text block, then exits with code 3 mid-turn
//   [api-error]        the CLI's synthetic error message and an is_error result
// FAKE_CLAUDE_MODEL=1 makes it model-driven instead (no script): each turn asks the model at
// $ANTHROPIC_BASE_URL/v1/messages?beta=true (Anthropic Messages, streamed, x-api-key and
// anthropic-version headers, the working folder in the system prompt, the session in
// metadata.user_id) as Claude Code does, calls each tool_use on its MCP servers, sends the
// tool_result back, and ends with the model's text; an HTTP error is the CLI's "API Error" result.
// And by env: FAKE_CLAUDE_IGNORE_SIGTERM=1 (ignores SIGTERM and interrupts), FAKE_CLAUDE_NO_USAGE=1
// (results without usage or cost), FAKE_CLAUDE_ARGS_FILE=<path> (writes its argv and selected env there, the API key hashed).
'use strict';

const { createHash, randomUUID } = require('node:crypto');
const { readFileSync, writeFileSync } = require('node:fs');
const readline = require('node:readline');
const { postModel } = require('../../native/__fixtures__/modelHttp');
const { readMessagesStream } = require('../../native/__fixtures__/messagesStream');
// The MCP SDK client, required on first use.
const sdk = require('../../native/__fixtures__/lazyMcpClientSdk');

const VERSION = '2.1.44';
const MODEL = 'claude-sonnet-4-5-20250929';
const argv = process.argv.slice(2);
const option = (name) => {
  const i = argv.indexOf(name);
  return i === -1 ? undefined : argv[i + 1];
};
if (argv.includes('--version')) {
  process.stdout.write(`${VERSION} (Claude Code)\n`);
  process.exit(0);
}
if (process.env.FAKE_CLAUDE_ARGS_FILE) {
  const env = Object.fromEntries(
    Object.entries(process.env)
      .filter(([k]) => /^(ANTHROPIC_|CLAUDE_|DISABLE_|HOME$|PATH$)/.test(k))
      // The key only as its SHA-256: a test's file is outside the launch's private root.
      .map(([k, v]) => [k, k === 'ANTHROPIC_API_KEY' ? `sha256:${createHash('sha256').update(v).digest('hex')}` : v]),
  );
  writeFileSync(process.env.FAKE_CLAUDE_ARGS_FILE, JSON.stringify({ argv, env }));
}
const ignoreSigterm = process.env.FAKE_CLAUDE_IGNORE_SIGTERM === '1';
// Ignoring SIGTERM, it also stays alive with nothing left to do (only SIGKILL ends it).
if (ignoreSigterm) {
  process.on('SIGTERM', () => undefined);
  setInterval(() => undefined, 1000);
}

const sessionId = randomUUID();
const allowed = (option('--allowedTools') ?? '').split(/[ ,]+/).filter((t) => t !== '');
const dontAsk = option('--permission-mode') === 'dontAsk';
const mcpConfig = option('--mcp-config');
const servers = mcpConfig ? JSON.parse(readFileSync(mcpConfig, 'utf8')).mcpServers : {};
/** name → { client, tools: [names] } */
const connected = new Map();
let calls = 0;
let messages = 0;
const cumulative = { input: 0, output: 0, cost: 0 };

const write = (value) => process.stdout.write(`${JSON.stringify(value)}\n`);
const delay = (ms) => new Promise((r) => setTimeout(r, ms));

async function connectAll() {
  for (const [name, cfg] of Object.entries(servers)) {
    if (connected.has(name)) continue;
    const transport =
      cfg.type === 'http'
        ? new sdk.StreamableHTTPClientTransport(new URL(cfg.url), { requestInit: { headers: cfg.headers ?? {} } })
        : new sdk.StdioClientTransport({ command: cfg.command, args: cfg.args ?? [], env: cfg.env, stderr: 'ignore' });
    const client = new sdk.Client({ name: 'claude-code', version: VERSION }, { capabilities: { roots: {} } });
    try {
      await client.connect(transport);
      const { tools } = await client.listTools();
      connected.set(name, { client, tools: tools.map((t) => t.name), definitions: tools, status: 'connected' });
    } catch {
      connected.set(name, { client: undefined, tools: [], definitions: [], status: 'failed' });
    }
  }
}

const qualified = (server, tool) => `mcp__${server}__${tool}`;
const isAllowed = (name) =>
  !dontAsk || allowed.some((rule) => rule === name || (rule.endsWith('__*') && name.startsWith(rule.slice(0, -1))));

function assistant(content, id, usage = { input_tokens: 10, output_tokens: 1 }) {
  write({
    type: 'assistant',
    message: { id, type: 'message', role: 'assistant', model: MODEL, content, stop_reason: null, usage },
    parent_tool_use_id: null,
    session_id: sessionId,
    uuid: randomUUID(),
  });
}

function result(subtype, text, extra = {}) {
  const usage = process.env.FAKE_CLAUDE_NO_USAGE === '1';
  if (!usage && subtype === 'success') {
    cumulative.input += 21;
    cumulative.output += 12;
    cumulative.cost = Math.round((cumulative.cost + 0.000405) * 1e6) / 1e6;
  }
  write({
    type: 'result',
    subtype,
    is_error: extra.is_error ?? false,
    duration_ms: 5,
    duration_api_ms: 3,
    num_turns: 1,
    ...(text !== null && { result: text }),
    stop_reason: null,
    session_id: sessionId,
    ...(!usage && {
      total_cost_usd: cumulative.cost,
      usage: { input_tokens: 21, output_tokens: 12, service_tier: 'standard' },
      modelUsage:
        subtype === 'success'
          ? { [MODEL]: { inputTokens: cumulative.input, outputTokens: cumulative.output, costUSD: cumulative.cost } }
          : {},
    }),
    permission_denials: extra.denials ?? [],
    uuid: randomUUID(),
  });
}

/** Calls one tool_use on its server (refused outside --allowedTools under dontAsk, as the CLI does). */
async function callTool(server, tool, name, input, useId, denials) {
  let content;
  let isError;
  let structured;
  if (server === undefined) {
    [content, isError] = [`Error: No such tool available: ${name}`, true];
  } else if (!isAllowed(name)) {
    [content, isError] = [
      `Permission to use ${name} has been denied because Claude Code is running in don't ask mode.`,
      true,
    ];
    denials.push({ tool_name: name, tool_use_id: useId, tool_input: input });
  } else {
    try {
      const res = await connected.get(server).client.request(
        {
          method: 'tools/call',
          params: { name: tool, arguments: input, _meta: { 'claudecode/toolUseId': useId } },
        },
        require('@modelcontextprotocol/sdk/types.js').CallToolResultSchema,
      );
      content = res.content.map((c) => c.text ?? '').join('\n');
      isError = res.isError === true;
      structured = res.structuredContent;
    } catch (error) {
      [content, isError] = [`MCP error: ${error.message}`, true];
    }
  }
  return { content, isError, structured };
}

const modelDriven = process.env.FAKE_CLAUDE_MODEL === '1';
/** The conversation sent to the model, across the turns of this process. */
const history = [];
const ALIASES = { sonnet: MODEL, opus: 'claude-opus-4-1-20250805', haiku: 'claude-haiku-4-5-20251001' };
const PRICE_PER_TOKEN = { input: 3 / 1e6, output: 15 / 1e6 };

/** The system prompt, with the working folder in it as Claude Code's environment block has. */
function systemPrompt() {
  return [
    { type: 'text', text: "You are Claude Code, Anthropic's official CLI for Claude." },
    {
      type: 'text',
      text: `You are an interactive CLI tool that helps users with software engineering tasks.\n\n<env>\nWorking directory: ${process.cwd()}\nIs directory a git repo: No\nPlatform: ${process.platform}\n</env>`,
    },
  ];
}

/** The MCP tools offered to the model (all of them: dontAsk refuses the ones outside --allowedTools at call time). */
function modelTools() {
  return [...connected].flatMap(([server, c]) =>
    c.definitions.map((t) => ({
      name: qualified(server, t.name),
      description: t.description ?? '',
      input_schema: t.inputSchema,
    })),
  );
}

/** One model-driven turn: model → tool_use → MCP call → tool_result → ... → the model's text. */
async function modelTurn(prompt) {
  const base = (process.env.ANTHROPIC_BASE_URL ?? 'https://api.anthropic.com').replace(/\/$/, '');
  const model = ALIASES[option('--model')] ?? option('--model') ?? MODEL;
  history.push({ role: 'user', content: [{ type: 'text', text: prompt }] });
  const denials = [];
  const turnUsage = { input_tokens: 0, output_tokens: 0 };
  for (let round = 0; round < 10; round++) {
    let message;
    try {
      const response = await postModel(
        `${base}/v1/messages?beta=true`,
        {
          'x-api-key': process.env.ANTHROPIC_API_KEY ?? '',
          'anthropic-version': '2023-06-01',
          accept: 'application/json',
          'user-agent': `claude-cli/${VERSION} (external, sdk-cli)`,
          'x-app': 'cli',
        },
        {
          model,
          max_tokens: 32000,
          system: systemPrompt(),
          messages: history,
          tools: modelTools(),
          metadata: { user_id: `user_fixture_account__session_${sessionId}` },
          stream: true,
        },
      );
      message = await readMessagesStream(response, (block, m) => {
        if (block.type !== 'tool_use') assistant([block], m.id, m.usage);
      });
    } catch (error) {
      history.pop();
      const text = `API Error: ${error.status ?? ''} ${error.body ?? error.message}`.replace(/ +/g, ' ');
      write({
        type: 'assistant',
        message: { id: randomUUID(), model: '<synthetic>', role: 'assistant', content: [{ type: 'text', text }] },
        session_id: sessionId,
      });
      return result('success', text, { is_error: true });
    }
    turnUsage.input_tokens += message.usage?.input_tokens ?? 0;
    turnUsage.output_tokens += message.usage?.output_tokens ?? 0;
    history.push({ role: 'assistant', content: message.content });
    const uses = message.content.filter((b) => b.type === 'tool_use');
    if (uses.length === 0) {
      const answer = message.content
        .filter((b) => b.type === 'text')
        .map((b) => b.text)
        .join('');
      return modelResult(answer, turnUsage, denials, model);
    }
    const results = [];
    for (const use of uses) {
      assistant([use], message.id, message.usage);
      const [, server, tool] = /^mcp__(.+?)__(.+)$/.exec(use.name) ?? [];
      const known = server !== undefined && connected.get(server)?.tools.includes(tool);
      const outcome = await callTool(known ? server : undefined, tool, use.name, use.input, use.id, denials);
      write({
        type: 'user',
        message: {
          role: 'user',
          content: [
            {
              tool_use_id: use.id,
              type: 'tool_result',
              content: outcome.content,
              ...(outcome.isError && { is_error: true }),
            },
          ],
        },
        parent_tool_use_id: null,
        session_id: sessionId,
        uuid: randomUUID(),
        ...(outcome.structured !== undefined && {
          tool_use_result: { content: outcome.content, structuredContent: outcome.structured },
        }),
      });
      results.push({
        type: 'tool_result',
        tool_use_id: use.id,
        content: outcome.content,
        ...(outcome.isError && { is_error: true }),
      });
    }
    history.push({ role: 'user', content: results });
  }
  return modelResult('stopped after 10 model rounds', turnUsage, denials, model);
}

/** The turn's `result`: the model's answer, its token usage and the cost at Sonnet's price. */
function modelResult(answer, usage, denials, model) {
  const cost = usage.input_tokens * PRICE_PER_TOKEN.input + usage.output_tokens * PRICE_PER_TOKEN.output;
  cumulative.input += usage.input_tokens;
  cumulative.output += usage.output_tokens;
  cumulative.cost = Math.round((cumulative.cost + cost) * 1e9) / 1e9;
  write({
    type: 'result',
    subtype: 'success',
    is_error: false,
    duration_ms: 5,
    duration_api_ms: 3,
    num_turns: 1,
    result: answer,
    stop_reason: null,
    session_id: sessionId,
    total_cost_usd: cumulative.cost,
    usage: { ...usage, service_tier: 'standard' },
    modelUsage: {
      [model]: { inputTokens: cumulative.input, outputTokens: cumulative.output, costUSD: cumulative.cost },
    },
    permission_denials: denials,
    uuid: randomUUID(),
  });
}

let interrupt = () => undefined;

async function turn(prompt) {
  await connectAll();
  const tools = [...connected].flatMap(([s, c]) => c.tools.map((t) => qualified(s, t)));
  write({
    type: 'system',
    subtype: 'init',
    cwd: process.cwd(),
    session_id: sessionId,
    tools,
    mcp_servers: [...connected].map(([name, c]) => ({ name, status: c.status })),
    model: MODEL,
    permissionMode: option('--permission-mode') ?? 'default',
    apiKeySource: 'ANTHROPIC_API_KEY',
    claude_code_version: VERSION,
    uuid: randomUUID(),
  });
  if (modelDriven) return modelTurn(prompt);
  const id = `msg_fixture_${++messages}`;
  if (prompt.includes('[think]')) {
    assistant([{ type: 'thinking', thinking: 'Let me think.', signature: 'c2lnbmF0dXJl' }], id);
    assistant([{ type: 'redacted_thinking', data: 'ZW5jcnlwdGVk' }], id);
  }
  if (prompt.includes('[api-error]')) {
    write({
      type: 'assistant',
      message: {
        id: randomUUID(),
        model: '<synthetic>',
        role: 'assistant',
        content: [{ type: 'text', text: 'API Error: 400 bad' }],
      },
      session_id: sessionId,
    });
    return result('success', 'API Error: 400 bad', { is_error: true });
  }
  if (prompt.includes('[stall]') || prompt.includes('[exit]')) {
    assistant([{ type: 'text', text: 'working on it' }], id);
    if (prompt.includes('[exit]')) process.exit(3);
    await new Promise((resolve) => (interrupt = resolve));
    write({
      type: 'user',
      message: { role: 'user', content: [{ type: 'text', text: '[Request interrupted by user]' }] },
      session_id: sessionId,
    });
    return result('error_during_execution', null);
  }
  const denials = [];
  const texts = [];
  for (const match of prompt.matchAll(/call:([A-Za-z0-9_-]+)(\{[^}]*\})?/g)) {
    const [, tool, json] = match;
    const server = [...connected].find(([, c]) => c.tools.includes(tool))?.[0];
    const name = server === undefined ? tool : qualified(server, tool);
    const input = json ? JSON.parse(json) : {};
    const useId = `toolu_fixture_${++calls}`;
    assistant([{ type: 'tool_use', id: useId, name, input }], `msg_fixture_${++messages}`);
    const { content, isError, structured } = await callTool(server, tool, name, input, useId, denials);
    write({
      type: 'user',
      message: {
        role: 'user',
        content: [{ tool_use_id: useId, type: 'tool_result', content, ...(isError && { is_error: true }) }],
      },
      parent_tool_use_id: null,
      session_id: sessionId,
      uuid: randomUUID(),
      ...(structured !== undefined && { tool_use_result: { content, structuredContent: structured } }),
    });
    texts.push(content);
  }
  const answer = texts.length > 0 ? `done: ${texts.join(' | ')}` : `echo: ${prompt}`;
  assistant([{ type: 'text', text: answer }], `msg_fixture_${++messages}`);
  result('success', answer, { denials });
}

let queue = Promise.resolve();
const lines = readline.createInterface({ input: process.stdin });
lines.on('line', (line) => {
  if (line.trim() === '') return;
  const message = JSON.parse(line);
  if (message.type === 'control_request' && message.request?.subtype === 'interrupt') {
    if (ignoreSigterm) return;
    write({ type: 'control_response', response: { subtype: 'success', request_id: message.request_id } });
    interrupt();
    return;
  }
  if (message.type !== 'user') return;
  const text = message.message.content.map((b) => b.text ?? '').join('');
  queue = queue.then(() => turn(text));
});
lines.on('close', () => {
  queue.then(async () => {
    if (ignoreSigterm) await delay(60_000);
    for (const { client } of connected.values()) await client?.close().catch(() => undefined);
    process.exit(0);
  });
});
