#!/usr/bin/env node
// Re-records `examples/suites/__cassettes__/cassettes.test.ts.cassette.json`: what a developer does
// with a real provider (its key in the environment, `npx m3 test <file> --update-cassettes`), with
// the fake model of `sf-m3/testing` standing in for the provider. The suite reads the model's
// address from SHIPPING_MODEL_URL; `--update-cassettes` records every request it makes and drops
// the entries it no longer makes.
'use strict';
const { spawn } = require('node:child_process');
const path = require('node:path');
const { FakeChatCompletionsServer, lastUserText, trailingToolResults } = require('../../testing.js');

const root = path.resolve(__dirname, '../..');

/** The provider's part: a shipping agent's model (it asks for the quote tool, then reads its result) and a judge. */
function providerStandIn() {
  return new FakeChatCompletionsServer()
    .when(
      { model: 'shipping-judge' },
      { content: JSON.stringify({ score: 1, rationale: 'quotes USD 9', abstain: false }) },
    )
    .when({ afterToolResult: 'example-mcp__shipping_quote' }, (request) => ({
      content: `The quote is ${trailingToolResults(request)[0]?.text ?? 'missing'}.`,
    }))
    .when({ lastUserText: /(\d+) kg (local|regional)/, afterToolResult: false }, (request) => {
      const [, weight, zone] = /(\d+) kg (\w+)/.exec(lastUserText(request));
      return { toolCalls: [{ name: 'example-mcp__shipping_quote', arguments: { weight_kg: Number(weight), zone } }] };
    });
}

async function main() {
  const model = providerStandIn();
  const { baseUrl } = await model.start();
  try {
    const args = [
      path.join(root, 'bin', 'm3.js'),
      'test',
      '--update-cassettes',
      '--results-db',
      '.m3/executions.sqlite',
    ];
    args.push('--', '--config', 'examples/jest.config.js', 'examples/suites/cassettes.test.ts');
    const child = spawn(process.execPath, args, {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, SHIPPING_MODEL_URL: baseUrl },
    });
    const status = await new Promise((resolve) => child.once('exit', (code) => resolve(code ?? 1)));
    process.exitCode = status;
  } finally {
    await model.close();
  }
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
