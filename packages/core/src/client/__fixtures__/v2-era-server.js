// A server built with the official SDK v2 (`@modelcontextprotocol/server`), for the protocol-era
// tests. `createV2Server({ era })` builds one instance; run as a script it serves:
//   node v2-era-server.js stdio [--reject]     both eras over stdio (modern only with --reject;
//                                              --omit-result-type: complete results without resultType)
//   node v2-era-server.js http [--reject]      Streamable HTTP on 127.0.0.1 (random port; prints the URL)
// Tools: `echo` (text), `add` (structured result), `confirm` (asks for confirmation: an
// `input_required` round on 2026-07-28, an elicitation request on a 2025 connection), `insist`
// (asks again on every round, to exceed a round limit). On 2026-07-28 the resource
// `memory://workspace` asks for the client's roots and the prompt `briefing` for a sampled draft.
// Notifications: `grow` registers one more tool (`notifications/tools/list_changed`) and `touch`
// rewrites the resource `memory://notes` (`notifications/resources/updated` for subscribers),
// on a 2025 connection as unsolicited notifications, on 2026-07-28 on `subscriptions/listen`.
// Over Streamable HTTP (`createMcpHandler`) every request gets a fresh instance, so the grown tools
// and the notes live in one state shared by those instances, and changes are published on the
// handler's listen bus (`handler.notify`), as a stateless SDK v2 server must publish them.
'use strict';
const { McpServer, inputRequired, inputResponse, acceptedContent } = require('@modelcontextprotocol/server');
const { z } = require('zod');

/** What `grow` and `touch` change; one per connection, or one per HTTP server (see main). */
function newState() {
  return { grown: 0, notes: 'first', notify: null };
}

/** One v2 server instance for the given era; `state.notify` is the HTTP handler's notifier, if any. */
function createV2Server({ era }, state = newState()) {
  const server = new McpServer(
    { name: 'v2-era-server', version: '2.4.0-fixture' },
    {
      capabilities: { tools: { listChanged: true }, resources: { subscribe: true } },
      instructions: `served in the ${era} era`,
    },
  );
  server.registerTool(
    'echo',
    { description: 'Echoes its text', inputSchema: z.object({ text: z.string() }) },
    async ({ text }) => ({ content: [{ type: 'text', text: `${era}: ${text}` }] }),
  );
  server.registerTool(
    'add',
    {
      description: 'Adds two numbers',
      inputSchema: z.object({ a: z.number(), b: z.number() }),
      outputSchema: z.object({ sum: z.number() }),
    },
    async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }], structuredContent: { sum: a + b } }),
  );
  const confirmation = z.object({ confirm: z.boolean() });
  server.registerTool(
    'confirm',
    { description: 'Asks the user to confirm an action', inputSchema: z.object({ action: z.string() }) },
    async ({ action }, ctx) => {
      if (era === 'legacy') {
        const answer = await ctx.mcpReq.elicitInput({
          message: `Really ${action}?`,
          requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] },
        });
        const yes = answer.action === 'accept' && answer.content?.confirm === true;
        return { content: [{ type: 'text', text: yes ? `${action}: done` : `${action}: cancelled` }] };
      }
      const confirmed = acceptedContent(ctx.mcpReq.inputResponses, 'confirm', confirmation);
      if (confirmed === undefined) {
        return inputRequired({
          inputRequests: {
            confirm: inputRequired.elicit({ message: `Really ${action}?`, requestedSchema: confirmation }),
          },
          requestState: `state:${action}:${'\u00e9'}`,
        });
      }
      return { content: [{ type: 'text', text: confirmed.confirm ? `${action}: done` : `${action}: cancelled` }] };
    },
  );
  server.registerResource('workspace', 'memory://workspace', { mimeType: 'text/plain' }, async (uri, ctx) => {
    const answer = inputResponse(ctx.mcpReq.inputResponses, 'roots');
    if (era === 'modern' && answer.kind !== 'roots') {
      return inputRequired({ inputRequests: { roots: inputRequired.listRoots() } });
    }
    const roots = answer.kind === 'roots' ? answer.roots.map((r) => r.uri).join(',') : 'unknown';
    return { contents: [{ uri: uri.href, mimeType: 'text/plain', text: `roots: ${roots}` }] };
  });
  server.registerPrompt('briefing', { description: 'A briefing written by the client model' }, async (ctx) => {
    const answer = inputResponse(ctx.mcpReq.inputResponses, 'draft');
    if (era === 'modern' && answer.kind !== 'sampling') {
      return inputRequired({
        inputRequests: {
          draft: inputRequired.createMessage({
            messages: [{ role: 'user', content: { type: 'text', text: 'Draft a briefing' } }],
            maxTokens: 50,
          }),
        },
      });
    }
    const text =
      answer.kind === 'sampling' && answer.result.content.type === 'text' ? answer.result.content.text : 'none';
    return { messages: [{ role: 'user', content: { type: 'text', text: `briefing: ${text}` } }] };
  });
  server.registerTool(
    'insist',
    {
      description: 'Asks for confirmation on every round, never completing (2026-07-28 only)',
      inputSchema: z.object({}),
    },
    async (_args, ctx) => {
      const round = Number(ctx.mcpReq.requestState?.() ?? 0) + 1;
      return inputRequired({
        inputRequests: {
          [`again-${round}`]: inputRequired.elicit({ message: 'Again?', requestedSchema: confirmation }),
        },
        requestState: String(round),
      });
    },
  );
  const registerGrown = (n) =>
    server.registerTool(`grown-${n}`, { description: `Added by grow call ${n}` }, async () => ({
      content: [{ type: 'text', text: `grown ${n}` }],
    }));
  for (let n = 1; n <= state.grown; n += 1) registerGrown(n);
  server.registerTool('grow', { description: 'Adds one more tool to the tool list' }, async () => {
    state.grown += 1;
    registerGrown(state.grown);
    state.notify?.toolsChanged();
    return { content: [{ type: 'text', text: `tools grown: ${state.grown}` }] };
  });
  server.registerResource('notes', 'memory://notes', { mimeType: 'text/plain' }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: 'text/plain', text: state.notes }],
  }));
  // A 2025 client subscribes with resources/subscribe (the SDK routes 2026-07-28 updates by the
  // listen filter itself).
  const subscribed = new Set();
  if (era === 'legacy') {
    server.server.setRequestHandler('resources/subscribe', async (request) => {
      subscribed.add(request.params.uri);
      return {};
    });
    server.server.setRequestHandler('resources/unsubscribe', async (request) => {
      subscribed.delete(request.params.uri);
      return {};
    });
  }
  server.registerTool(
    'touch',
    { description: 'Rewrites memory://notes', inputSchema: z.object({ text: z.string() }) },
    async ({ text }) => {
      state.notes = text;
      if (state.notify !== null) state.notify.resourceUpdated('memory://notes');
      else if (era === 'modern' || subscribed.has('memory://notes')) {
        await server.server.sendResourceUpdated({ uri: 'memory://notes' });
      }
      return { content: [{ type: 'text', text: 'notes rewritten' }] };
    },
  );
  return server;
}

/**
 * `--omit-result-type`: results that are complete go out without `resultType`, as a server written
 * without the SDK may send them (the 2026-07-28 spec: clients MUST treat an absent `resultType` as
 * `complete`; conformance check `sep-2322-default-result-type-complete`). Rewrites each line the
 * SDK writes to stdout.
 */
function omitCompleteResultType() {
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = (chunk, ...rest) => {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    const lines = text.split('\n').map((line) => {
      if (line.trim() === '') return line;
      const message = JSON.parse(line);
      if (message.result && message.result.resultType === 'complete') delete message.result.resultType;
      return JSON.stringify(message);
    });
    return write(lines.join('\n'), ...rest);
  };
}

async function main() {
  const [mode, ...flags] = process.argv.slice(2);
  const reject = flags.includes('--reject');
  if (mode === 'stdio') {
    if (flags.includes('--omit-result-type')) omitCompleteResultType();
    const { serveStdio } = require('@modelcontextprotocol/server/stdio');
    serveStdio(createV2Server, { legacy: reject ? 'reject' : 'serve' });
    return;
  }
  if (mode === 'http') {
    const http = require('node:http');
    const { createMcpHandler } = require('@modelcontextprotocol/server');
    const { toNodeHandler } = require('@modelcontextprotocol/node');
    const state = newState();
    const mcp = createMcpHandler((context) => createV2Server(context, state), {
      legacy: reject ? 'reject' : 'stateless',
    });
    state.notify = mcp.notify;
    const handler = toNodeHandler(mcp);
    const httpServer = http.createServer((req, res) => {
      if (req.url !== '/mcp') {
        res.writeHead(404).end();
        return;
      }
      void handler(req, res);
    });
    httpServer.listen(0, '127.0.0.1', () => {
      process.stdout.write(`listening on http://127.0.0.1:${httpServer.address().port}/mcp\n`);
    });
    return;
  }
  process.stderr.write('usage: v2-era-server.js stdio [--reject] [--omit-result-type] | http [--reject]\n');
  process.exit(2);
}

module.exports = { createV2Server };
if (require.main === module) void main();
