#!/usr/bin/env node
// Runs the kit from its TypeScript sources in a fresh process (so the parent test can watch this
// process's real stdout and stderr): connects to the stdio fixture (which writes a secret to its
// stderr), calls a tool with the secret, provokes an internal log line with a malformed server,
// writes one log line carrying the secret, and prints what the trace kept as JSON on stdout.
'use strict';
const path = require('node:path');
// Loads the TypeScript sources (the repository's one loader).
require('../../../../../scripts/registerTypeScript');

const src = path.join(__dirname, '..', '..');
const { MCPTestKit } = require(path.join(src, 'kit', 'MCPTestKit'));
const { StdioServer } = require(path.join(src, 'servers', 'StdioServer'));
const { secretFromEnv } = require(path.join(src, 'redaction', 'SecretRef'));
const { createLogger } = require(path.join(src, 'logging', 'logger'));

async function main() {
  const secret = process.env.M3_QA_SECRET;
  const kit = new MCPTestKit({ suiteName: 'quiet' });
  const noisy = new StdioServer({
    name: 'noisy',
    command: process.execPath,
    args: [path.join(__dirname, 'stdio-fixture-server.js')],
    env: { FIXTURE_TOKEN: secretFromEnv('M3_QA_SECRET') },
  });
  const client = await kit.direct(noisy).connect();
  await client.callTool('echo', { text: `echo ${secret}` });
  const failure = await client.callTool('slow', { ms: 5_000 }, { timeoutMs: 50 }).catch((error) => error);
  await client.close();

  const malformed = new StdioServer({
    name: 'malformed',
    command: process.execPath,
    args: [path.join(__dirname, 'malformed-stdio-server.js')],
  });
  const broken = await kit.direct(malformed).connect();
  await broken.callTool('not_json', {}, { timeoutMs: 100 }).catch(() => undefined);
  await broken.close();

  createLogger(kit.redactor, { component: 'quiet-kit-run' }).warn(`leaking ${secret}`, { detail: `token=${secret}` });
  const process0 = client.result.traceView.processes[0];
  await kit.close();
  process.stdout.write(
    JSON.stringify({
      stderr: process0.stderr,
      trace: client.finalTrace.toJSON(),
      errorMessage: failure.message,
      errorClass: failure.constructor.name,
    }),
  );
}

main().catch((error) => {
  process.stdout.write(JSON.stringify({ crashed: String(error && error.stack) }));
  process.exitCode = 1;
});
