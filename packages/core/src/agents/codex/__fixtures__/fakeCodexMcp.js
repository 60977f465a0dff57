'use strict';
// fake-codex.js's MCP side, as Codex does it: connects the servers of config.toml with the MCP
// SDK (client codex-mcp-client), reports their startup, offers only `enabled_tools`, asks approval
// when told to, and calls tools with `_meta.callId` = the mcpToolCall item id.
const { randomUUID } = require('node:crypto');
// The MCP SDK client, required on first use.
const sdk = require('../../native/__fixtures__/lazyMcpClientSdk');

const now = () => Date.now();

class FakeCodexMcp {
  /** `io`: { config, version, send, notify, template, itemTemplate, answers, thread() }. */
  constructor(io) {
    this.io = io;
    this.servers = new Map(); // name -> { client, tools: Set<string> }
    this.pendingRequest = 0;
  }

  async connectServers() {
    const { config, notify, version } = this.io;
    const threadId = this.io.thread();
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
            ? new sdk.StreamableHTTPClientTransport(new URL(entry.url), {
                requestInit: { headers: entry.http_headers ?? {} },
              })
            : new sdk.StdioClientTransport({
                command: entry.command,
                args: entry.args ?? [],
                env: { ...process.env, ...(entry.env ?? {}) },
                stderr: 'ignore',
              });
        const client = new sdk.Client({ name: 'codex-mcp-client', title: 'Codex', version: version });
        await client.connect(transport);
        const definitions = (await client.listTools()).tools;
        const listed = definitions.map((t) => t.name);
        const enabled =
          entry.enabled_tools === undefined ? listed : listed.filter((t) => entry.enabled_tools.includes(t));
        this.servers.set(name, {
          client,
          tools: new Set(enabled),
          definitions: definitions.filter((t) => enabled.includes(t.name)),
        });
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
  askApproval(turnId, server, tool, args) {
    const { send, template, answers } = this.io;
    const threadId = this.io.thread();
    const id = this.pendingRequest++;
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

  /** The enabled tools as Responses function tools, named `mcp__<server>__<tool>` as Codex names them. */
  functionTools() {
    return [...this.servers].flatMap(([server, entry]) =>
      entry.definitions.map((t) => ({
        type: 'function',
        name: `mcp__${server}__${t.name}`,
        description: t.description ?? '',
        strict: false,
        parameters: t.inputSchema,
      })),
    );
  }

  /** A scripted `call <server>:<tool> <json>` (or `force-call`) directive; resolves `<tool>: <result text>`. */
  async callTool(turnId, directive, approvals) {
    const [, force, server, tool, json] = directive.match(/^(force-)?call\s+([^:\s]+):(\S+)\s*(.*)$/);
    const args = json.trim() === '' ? {} : JSON.parse(json);
    const outcome = await this.callNamed(turnId, server, tool, args, { force: force !== undefined, approvals });
    return `${tool}: ${outcome.text}`;
  }

  /**
   * Calls `tool` of `server` as an mcpToolCall item (started, completed); resolves `{ text, ok }`,
   * `text` being the result's text, or why it was not called.
   */
  async callNamed(turnId, server, tool, args, { force = false, approvals = false } = {}) {
    const { notify, itemTemplate } = this.io;
    const threadId = this.io.thread();
    const entry = this.servers.get(server);
    if (entry === undefined || (!force && !entry.tools.has(tool))) return { text: 'not offered', ok: false };
    if (approvals && !(await this.askApproval(turnId, server, tool, args))) return { text: 'declined', ok: false };
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
    let ok = false;
    try {
      const result = await entry.client.callTool({
        name: tool,
        arguments: args,
        _meta: { callId: item.id, threadId, sessionId: threadId },
      });
      Object.assign(item, { status: 'completed', result: { ...result, _meta: result._meta ?? null }, error: null });
      text = result.content?.map((c) => c.text ?? '').join('') ?? '';
      ok = result.isError !== true;
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
    return { text, ok };
  }
}

module.exports = { FakeCodexMcp };
