// OpenCode driven raw for the native bench: the `OPENCODE_CONFIG` file and switches the opencode
// harness writes (its own `opencodeConfig`, provider at the fake model's base URL), the example server
// attached directly, one `opencode serve --hostname 127.0.0.1 --port 0` across turns; a turn is one
// `POST /session/{id}/message`, which answers when the turn is over.
'use strict';

const { writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { coreModule, cliEnv, makeDirs, startCli, untilFrame } = require('./rawCli');

const LISTENING = /listening on (http:\/\/127\.0\.0\.1:\d+)/;

async function post(origin, path, body, directory) {
  const response = await fetch(new URL(path, origin), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-opencode-directory': directory },
    body: JSON.stringify(body),
    signal: globalThis.AbortSignal.timeout(120_000),
  });
  if (!response.ok) throw new Error(`raw opencode ${path} answered ${response.status}: ${await response.text()}`);
  return response.json();
}

/** Opens one raw session; `turn(prompt)` resolves the answer's text, `close()` reaps the server. */
async function open({ executable, baseUrl, model, server }) {
  const { opencodeConfig, parseOpencodeModel, OPENCODE_SWITCHES } = coreModule('agents/opencode/opencodeConfig.js');
  const ref = parseOpencodeModel(model);
  const dirs = makeDirs('opencode');
  const config = opencodeConfig({
    model: ref,
    baseUrl,
    apiKeyEnv: 'OPENCODE_API_KEY',
    servers: [server],
    tools: [{ server: server.name, tools: 'all' }],
  });
  const path = join(dirs.configDir, 'opencode.json');
  writeFileSync(path, JSON.stringify(config, null, 2), { mode: 0o600 });
  const env = cliEnv(dirs, { ...OPENCODE_SWITCHES, OPENCODE_CONFIG: path, OPENCODE_API_KEY: 'fake-key-for-loopback' });
  const cli = startCli(executable, ['serve', '--hostname', '127.0.0.1', '--port', '0'], env, dirs);
  try {
    let seen = '';
    const origin = await untilFrame(cli, 'the listening line', 60_000, (resolve) =>
      cli.child.stdout.on('data', (chunk) => {
        seen += chunk;
        const match = LISTENING.exec(seen);
        if (match !== null) resolve(match[1]);
      }),
    );
    const session = await post(origin, '/session', {}, dirs.workspace);
    return {
      async turn(prompt) {
        const answer = await post(
          origin,
          `/session/${session.id}/message`,
          { model: ref, parts: [{ type: 'text', text: prompt }] },
          dirs.workspace,
        );
        if (answer.info?.error) throw new Error(`raw opencode turn failed: ${JSON.stringify(answer.info.error)}`);
        return (answer.parts ?? [])
          .filter((part) => part.type === 'text')
          .map((part) => part.text)
          .join('');
      },
      close: () => cli.stop(),
    };
  } catch (error) {
    await cli.stop();
    throw error;
  }
}

module.exports = { kind: 'opencode', model: 'fake/bench', open };
