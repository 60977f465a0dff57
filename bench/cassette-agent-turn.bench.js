// An `openai`-harness agent turn replayed from a cassette against the same turn served live by the
// FakeModelServer (contract §24, issue 24 item 7): one session of N turns (default 30), each turn a
// tool call through MCP (the in-process example server) and a final answer, so two model requests
// per turn. The session is first recorded (mode `record`, live through the proxy, which also warms
// up), then run live with cassettes off and replayed from the cassette (mode `replay`, endpoint at a
// closed port), twice each, alternating. Prints median and p95 per turn and the ratio replayed /
// live against the target ≤ 1.1×. Needs the built dist. M3_BENCH_TURNS overrides N.
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const core = require(path.join(ROOT, 'packages/core/dist'));
const { FakeModelServer } = require(path.join(ROOT, 'packages/core/dist/testing'));
const examples = require(path.join(ROOT, 'examples/servers/dist'));
const { median, percentile, timed } = require('./stats');

const TURNS = Number(process.env.M3_BENCH_TURNS || 30);
const TARGET = 1.1;
const TEST_NAME = 'bench agent turn';
/** Nothing listens on port 9: a replay that tried to connect would fail. */
const CLOSED_PORT_URL = 'http://127.0.0.1:9/v1';
const TOOL = 'example__normalize_customer';

/** A model that calls `normalize_customer` for each prompt, then answers with the tool's text. */
function fakeModel() {
  return new FakeModelServer({ maxRequests: 100_000, maxRounds: 100_000 })
    .when({ afterToolResult: false }, (request) => ({
      toolCalls: [{ name: TOOL, arguments: { name: request.messages.at(-1).text ?? 'ada' } }],
    }))
    .when({ afterToolResult: TOOL }, (request) => ({
      content: `customer: ${request.messages.at(-1).toolResults[0].text}`,
    }));
}

/**
 * N turns of one session; `mode` null runs without cassettes. Returns the per-turn latencies and
 * answers, and the cassette book's report.
 */
async function session(folder, mode, baseUrl) {
  const book =
    mode === null
      ? null
      : core.openCassetteBook({
          testFile: path.join(folder, 'bench.test.ts'),
          testPath: 'bench.test.ts',
          settings: { mode, update: false },
        });
  const kit = new core.MCPTestKit(book === null ? {} : { cassettes: book.scope(TEST_NAME) });
  const server = new core.InProcessServer({ name: 'example', factory: examples.createExampleServer });
  const answers = [];
  try {
    const [agent] = kit.agents([{ harness: 'openai', model: 'fake-model', baseUrl, auth: 'none', maxRounds: 4 }]);
    const s = await agent.session({ servers: [server], timeoutMs: 10 * 60_000 });
    const latencies = await timed(TURNS, async (i) => {
      const turn = await s.send(`customer ${i + 1}`);
      if (turn.outcome !== 'completed' || !turn.response)
        throw new Error(`${mode ?? 'live'} turn ${i + 1} ended ${turn.outcome}: ${JSON.stringify(turn.error)}`);
      answers.push(turn.response.text);
    });
    const result = await s.close();
    const metadata = result.snapshot.metadata;
    return {
      latencies,
      answers,
      cassette: metadata ? metadata.cassette : null,
      report: book && (await book.finish({ fullRun: true })),
    };
  } finally {
    await kit.close();
  }
}

function printRow(label, values) {
  process.stdout.write(
    `${label.padEnd(30)} ${median(values).toFixed(2).padStart(10)} ${percentile(values, 95).toFixed(2).padStart(10)}\n`,
  );
}

async function run() {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'm3-bench-cassette-'));
  const fake = fakeModel();
  const { baseUrl } = await fake.start();
  try {
    const recorded = await session(folder, 'record', baseUrl);
    if (recorded.report.recorded !== 2 * TURNS) throw new Error(`recorded ${recorded.report.recorded} exchanges`);
    const live = [];
    const replayed = [];
    for (let round = 0; round < 2; round += 1) {
      const l = await session(folder, null, baseUrl);
      const r = await session(folder, 'replay', CLOSED_PORT_URL);
      if (r.cassette !== 'replayed' || r.report.replayed !== 2 * TURNS)
        throw new Error('the replay did not come from the cassette');
      if (
        JSON.stringify(r.answers) !== JSON.stringify(recorded.answers) ||
        JSON.stringify(l.answers) !== JSON.stringify(recorded.answers)
      )
        throw new Error('live, recorded and replayed answers differ');
      live.push(...l.latencies);
      replayed.push(...r.latencies);
    }
    process.stdout.write(
      `${TURNS} turns per session (a normalize_customer tool call and an answer: 2 model requests each), 2 sessions per path\n`,
    );
    process.stdout.write('path                            median ms     p95 ms\n');
    printRow('live (FakeModelServer)', live);
    printRow('replayed from the cassette', replayed);
    const ratio = median(replayed) / median(live);
    process.stdout.write(
      `ratio replayed / live turn (median): ${ratio.toFixed(2)} (target ≤ ${TARGET}) ${ratio <= TARGET ? 'ok' : 'ABOVE TARGET'}\n`,
    );
    return { live, replayed, ratio };
  } finally {
    await fake.close();
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

module.exports = { run };

if (require.main === module) {
  run().catch((error) => {
    process.stderr.write(`${error && error.stack ? error.stack : String(error)}\n`);
    process.exitCode = 1;
  });
}
