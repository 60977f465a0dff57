// The cost of matching a model request against a cassette (contract §24; issue target: under 1 ms
// per request for a cassette of 1 000 entries): a cassette file of 1 000 recorded chat requests
// (agent turns whose conversations grow to 20 messages, with a tool list and volatile temp paths)
// is written, read back by a replay book, and each request is matched as the channel matches it:
// the raw body (keys in another order than recorded) normalized (volatile fields, volatile strings,
// redaction) and looked up on the tape. Prints per-request time and the one-off load of the file.
// Needs the built dist. M3_BENCH_ENTRIES overrides the size.
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { performance } = require('node:perf_hooks');

const ROOT = path.resolve(__dirname, '..');
const core = require(path.join(ROOT, 'packages/core/dist'));
const { median, percentile } = require('./stats');

const ENTRIES = Number(process.env.M3_BENCH_ENTRIES || 1000);
const TARGET_MS = 1;
const TOOLS = Array.from({ length: 8 }, (_, i) => ({
  type: 'function',
  function: {
    name: `tool_${i}`,
    description: `Tool number ${i}: does one thing well and returns JSON.`,
    parameters: { type: 'object', properties: { weight_kg: { type: 'number' }, zone: { type: 'string' } } },
  },
}));

/** The raw body of request `i`, as a client sends it (its own key order, volatile fields included). */
function rawBody(i, workDir) {
  const turns = 1 + (i % 10);
  const messages = [{ role: 'system', content: `You are agent ${i % 7}. Work in ${workDir}.` }];
  for (let t = 0; t < turns; t += 1) {
    messages.push({ role: 'user', content: `Request ${i}, turn ${t}: quote ${t + 1} kg to zone ${t % 3}` });
    messages.push({ role: 'assistant', content: `Quote ${t}: ${(t + 1) * 4.5} EUR for ${workDir}/order-${i}.json` });
  }
  return JSON.stringify({
    stream: i % 2 === 0,
    user: `user-${i}`,
    metadata: { trial: String(i % 3) },
    messages,
    tools: TOOLS,
    model: 'gpt-4o-mini',
    stream_options: { include_usage: true },
  });
}

function rawRequest(i, workDir) {
  return {
    method: 'POST',
    path: '/v1/chat/completions',
    headers: { 'content-type': 'application/json', authorization: 'Bearer sk-live-0123456789abcdef' },
    body: rawBody(i, workDir),
  };
}

async function run() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'm3-cassette-bench-'));
  try {
    const testFile = path.join(dir, 'agents.test.ts');
    const redactor = new core.Redactor(['m3-canary-0a1b2c3d4e']);
    const open = (mode) =>
      core.openCassetteBook({ testFile, testPath: 'agents.test.ts', settings: { mode, update: false } });

    const recordDir = '/tmp/m3-run-recorded';
    const recorder = open('record');
    const recordTape = recorder.scope('agents › quotes').tape('openai gpt-4o-mini trial 1');
    for (let i = 0; i < ENTRIES; i += 1) {
      const request = core.normalizeCassetteRequest(rawRequest(i, recordDir), {
        volatileStrings: [recordDir],
        redactor,
      });
      recordTape.record({
        request,
        response: { status: 200, headers: { 'content-type': 'application/json' }, body: { answer: `quote ${i}` } },
      });
    }
    await recorder.finish({ fullRun: true });
    const fileBytes = fs.statSync(path.join(dir, '__cassettes__', 'agents.test.ts.cassette.json')).size;

    const replayDir = '/tmp/m3-run-replayed';
    const requests = Array.from({ length: ENTRIES }, (_, i) => rawRequest(i, replayDir));
    const book = open('replay');
    const loadStarted = performance.now();
    const tape = book.scope('agents › quotes').tape('openai gpt-4o-mini trial 1');
    const loadMs = performance.now() - loadStarted;

    const perRequest = [];
    let matched = 0;
    for (const raw of requests) {
      const started = performance.now();
      const response = tape.take(core.normalizeCassetteRequest(raw, { volatileStrings: [replayDir], redactor }));
      perRequest.push(performance.now() - started);
      if (response !== null) matched += 1;
    }
    if (matched !== ENTRIES) throw new Error(`only ${matched} of ${ENTRIES} requests matched their recording`);
    const missStarted = performance.now();
    tape.nearest(
      core.normalizeCassetteRequest(rawRequest(ENTRIES + 1, replayDir), { volatileStrings: [replayDir], redactor }),
    );
    const nearestMs = performance.now() - missStarted;
    await book.finish({ fullRun: true });

    const mean = perRequest.reduce((a, b) => a + b, 0) / perRequest.length;
    const rows = [
      ['cassette entries', String(ENTRIES)],
      ['cassette file (KiB)', (fileBytes / 1024).toFixed(0)],
      ['load + index the file, once (ms)', loadMs.toFixed(1)],
      ['match per request, mean (ms)', mean.toFixed(3)],
      ['match per request, median (ms)', median(perRequest).toFixed(3)],
      ['match per request, p95 (ms)', percentile(perRequest, 95).toFixed(3)],
      ['nearest request for a miss diff, once (ms)', nearestMs.toFixed(1)],
      ['target', `mean < ${TARGET_MS} ms ${mean < TARGET_MS ? 'met' : 'MISSED'}`],
    ];
    const width = Math.max(...rows.map(([label]) => label.length));
    for (const [label, value] of rows) process.stdout.write(`${label.padEnd(width)}  ${value}\n`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

module.exports = { run };
