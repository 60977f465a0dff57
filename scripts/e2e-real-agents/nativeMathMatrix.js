// The `math` target of `npm run e2e:real-agents`: the examples' math matrix on native harnesses.
// Hosts one FakeModelServer scripted with the matrix (OpenCode asks it in Chat Completions, Codex in
// the Responses dialect; the same content-matched rules answer both), hands the suite its native
// entries in M3_MATH_NATIVE_AGENTS, runs
//   m3 test --harness opencode=fake/careful --harness codex=sloppy --trials 2
// on examples/native (40 executions), and checks that the run passed, that the summary shows the
// pass rates per harness and per harness:model, and that the fake model hit no limit.
'use strict';

const { spawn } = require('node:child_process');
const { mkdirSync } = require('node:fs');
const { join } = require('node:path');
const { MATH_KINDS } = require('./runTargets');

/**
 * The model each harness gets: different ones, so the summary shows two different rates. OpenCode
 * names models `provider/model`; its driver turns a `baseUrl` into an OpenAI-compatible provider of
 * that name, and the fake sees the model id (`careful`).
 */
const MATH_MODELS = { opencode: 'fake/careful', codex: 'sloppy' };
/** example.math.v1's rate per model, as the summary prints it, and the count of 20 executions. */
const SUMMARY_RATE = { careful: ['100.0%', '20/20'], sloppy: ['70.0%', '14/20'] };
const TRIALS = 2;

/** Runs `command` with stdout echoed and kept; resolves its exit code and output. */
function runEchoed(command, args, options) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.on('data', (chunk) => {
      process.stdout.write(chunk);
      output += chunk;
    });
    child.once('error', reject);
    child.once('close', (code, signal) => resolve({ code: code ?? signal, output }));
  });
}

/** Lines the summary must have: per harness and per harness:model, for example.math.v1. */
function missingSummaryRows(output) {
  const wanted = [];
  for (const kind of MATH_KINDS) {
    const [rate, count] = SUMMARY_RATE[MATH_MODELS[kind].replace(/^.*\//, '')];
    wanted.push(
      [
        `${kind}`,
        new RegExp(`example\\.math\\.v1\\s+${kind}\\s+${rate.replace('.', '\\.')}\\s.*\\s${count}\\s*$`, 'm'),
      ],
      [
        `${kind}:${MATH_MODELS[kind]}`,
        new RegExp(
          `example\\.math\\.v1\\s+${kind}:${MATH_MODELS[kind]}\\s+${rate.replace('.', '\\.')}\\s.*\\s${count}\\s*$`,
          'm',
        ),
      ],
    );
  }
  return wanted.filter(([, pattern]) => !pattern.test(output)).map(([label]) => label);
}

/**
 * Runs the native math matrix; `env` carries M3_OPENCODE_EXECUTABLE and M3_CODEX_EXECUTABLE (run.js
 * sets them from the cache). Resolves true when every check held.
 */
async function runNativeMathMatrix({ repo, env, log }) {
  const executables = Object.fromEntries(MATH_KINDS.map((kind) => [kind, env[`M3_${kind.toUpperCase()}_EXECUTABLE`]]));
  const absent = MATH_KINDS.filter((kind) => !executables[kind]);
  if (absent.length > 0) {
    log(`math: no executable for ${absent.join(', ')} (install them: npm run e2e:real-agents -- --only math)`);
    return false;
  }
  const { FakeModelServer } = require(join(repo, 'testing.js'));
  const { scriptMathModel } = require(join(repo, 'examples', 'fixtures', 'math', 'mathModel.js'));
  // 40 executions of one or two tool rounds each, plus whatever side calls a CLI makes on its own.
  const fake = scriptMathModel(new FakeModelServer({ maxRequests: 2000, maxRounds: 4 }), { sideCalls: true });
  const { baseUrl } = await fake.start();
  try {
    const agents = MATH_KINDS.map((kind) => ({
      harness: kind,
      models: [MATH_MODELS[kind]],
      executable: executables[kind],
      baseUrl,
    }));
    mkdirSync(join(repo, '.m3'), { recursive: true });
    const args = [
      join(repo, 'bin', 'm3.js'),
      'test',
      '--results-db',
      join('.m3', 'native-math.sqlite'),
      ...MATH_KINDS.flatMap((kind) => ['--harness', `${kind}=${MATH_MODELS[kind]}`]),
      '--trials',
      String(TRIALS),
      '--',
      '--config',
      join('examples', 'native', 'jest.config.js'),
      'native/math-matrix\\.test\\.ts$', // the folder's other suites are other targets
    ];
    log(`\n$ M3_MATH_NATIVE_AGENTS=... m3 ${args.slice(1).join(' ')}`);
    const started = Date.now();
    const { code, output } = await runEchoed(process.execPath, args, {
      cwd: repo,
      env: {
        ...env,
        M3_MATH_NATIVE_AGENTS: JSON.stringify(agents),
        // Fake keys for the loopback model (the harnesses read them from their apiKeyEnv defaults).
        OPENAI_API_KEY: 'sk-fake-key-for-loopback',
        OPENCODE_API_KEY: 'fake-key-for-loopback',
      },
    });
    const seconds = ((Date.now() - started) / 1000).toFixed(0);
    const problems = [];
    if (code !== 0) problems.push(`m3 test exited ${code}`);
    const missing = missingSummaryRows(output);
    if (missing.length > 0) problems.push(`the summary lacks the example.math.v1 rows of ${missing.join(', ')}`);
    if (fake.limitViolations.length > 0) problems.push(`the fake model hit ${JSON.stringify(fake.limitViolations[0])}`);
    const dialects = [...new Set(fake.modelRequests.map((request) => request.dialect))].sort();
    log(
      `math: ${seconds} s, ${fake.modelRequests.length} model requests (${dialects.join(', ')}), ` +
        `${problems.length === 0 ? 'every check held' : problems.join('; ')}`,
    );
    return problems.length === 0;
  } finally {
    await fake.close();
  }
}

module.exports = { runNativeMathMatrix, MATH_MODELS, missingSummaryRows };
