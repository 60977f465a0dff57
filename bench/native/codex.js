// Codex driven raw for the native bench: the `CODEX_HOME/config.toml` the codex harness writes (its
// own `codexConfigToml`: the fake model as a Responses provider, retries off, approvals preset), the
// example server attached directly, one `codex app-server --listen stdio://` across turns (NDJSON JSON-RPC:
// initialize → initialized → thread/start, then turn/start per turn, ending at turn/completed).
'use strict';

const { writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { coreModule, cliEnv, makeDirs, readLines, startCli, untilFrame, writeLine } = require('./rawCli');

/** Opens one raw thread; `turn(prompt)` resolves the agent's last message, `close()` reaps the server. */
async function open({ executable, baseUrl, model, server }) {
  const { codexConfigToml } = coreModule('agents/codex/codexConfig.js');
  const dirs = makeDirs('codex');
  const toml = codexConfigToml({ model, baseUrl, apiKeyEnv: 'OPENAI_API_KEY', servers: [server], tools: [] });
  writeFileSync(join(dirs.configDir, 'config.toml'), toml, { mode: 0o600 });
  const env = cliEnv(dirs, { CODEX_HOME: dirs.configDir, OPENAI_API_KEY: 'sk-fake-key-for-loopback' });
  const cli = startCli(executable, ['app-server', '--listen', 'stdio://'], env, dirs);
  const pending = new Map();
  let nextId = 0;
  let onCompleted = null;
  let text = '';
  readLines(cli.child.stdout, (frame) => {
    if (frame.id !== undefined && frame.method === undefined) {
      const waiter = pending.get(frame.id);
      pending.delete(frame.id);
      if (frame.error) waiter?.reject(new Error(`codex ${waiter.method}: ${JSON.stringify(frame.error)}`));
      else waiter?.resolve(frame.result);
    } else if (frame.id !== undefined && frame.method !== undefined) {
      // A request from the server (an approval): accepted, as the harness's preset approvals would.
      writeLine(cli.child.stdin, { jsonrpc: '2.0', id: frame.id, result: { action: 'accept', content: null } });
    } else if (frame.method === 'item/completed' && frame.params?.item?.type === 'agentMessage') {
      text = frame.params.item.text ?? text;
    } else if (frame.method === 'turn/completed' && onCompleted !== null) {
      onCompleted(frame.params);
    }
  });
  const request = (method, params) => {
    nextId += 1;
    const id = nextId;
    const answered = untilFrame(cli, `the answer to ${method}`, 120_000, (resolve) =>
      pending.set(id, { method, resolve, reject: (error) => resolve(Promise.reject(error)) }),
    );
    writeLine(cli.child.stdin, { jsonrpc: '2.0', id, method, params });
    return answered;
  };
  try {
    await request('initialize', {
      clientInfo: { name: 'sf-m3-bench', title: 'sf-m3-bench', version: '1.0.0' },
      capabilities: { experimentalApi: false },
    });
    writeLine(cli.child.stdin, { jsonrpc: '2.0', method: 'initialized' });
    const started = await request('thread/start', {
      model,
      cwd: dirs.workspace,
      approvalPolicy: 'never',
      sandbox: 'read-only',
      ephemeral: true,
    });
    const threadId = started.thread.id;
    return {
      async turn(prompt) {
        text = '';
        const completed = untilFrame(cli, 'turn/completed', 120_000, (resolve) => (onCompleted = resolve));
        await request('turn/start', { threadId, input: [{ type: 'text', text: prompt }] });
        const params = await completed;
        onCompleted = null;
        if (params.turn?.status !== 'completed') throw new Error(`raw codex turn ended ${params.turn?.status}`);
        return text;
      },
      close: () => cli.stop(),
    };
  } catch (error) {
    await cli.stop();
    throw error;
  }
}

module.exports = { kind: 'codex', model: 'gpt-5.1-codex', open };
