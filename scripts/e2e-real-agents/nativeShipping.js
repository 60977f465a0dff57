// The `shipping` target of `npm run e2e:real-agents`: issue 12's shipping suite on all four native
// harnesses. Hosts one FakeModelServer scripted by content (examples/fixtures/shipping: Claude Code
// asks it in Anthropic Messages, Codex in Responses — in code mode for gpt-5.6-sol —, OpenCode and Pi
// in Chat Completions), hands examples/native/shipping.test.ts its native entries in
// M3_SHIPPING_NATIVE_AGENTS, runs
//   m3 test --harness claude_code=sonnet --harness codex=gpt-5.6-sol \
//           --harness opencode=fake/shipper --harness pi=fake/shipper --trials 2
// on examples/native, and checks that the run passed, that the summary shows the evaluator's pass
// rates per harness and per harness:model, that every harness's CLI asked the fake in its dialect
// without hitting a limit, and that no process the run started is left.
'use strict';

const { spawn } = require('node:child_process');
const { mkdirSync } = require('node:fs');
const { join } = require('node:path');
const { watchDescendants } = require('./descendantWatch');

/** The CLIs the suite drives, and the model each gets (OpenCode and Pi name models `provider/model`). */
const SHIPPING_MODELS = {
  claude_code: 'sonnet',
  codex: 'gpt-5.6-sol',
  opencode: 'fake/shipper',
  pi: 'fake/shipper',
};
const SHIPPING_KINDS = Object.keys(SHIPPING_MODELS);
const TRIALS = 2;
/** The suite's evaluated cases (two) × trials: the evaluations per harness, all passing. */
const EVALUATED = 2 * TRIALS;
/** The dialect each kind speaks to the fake. */
const DIALECTS = ['anthropic_messages', 'chat_completions', 'responses'];

/** Claude Code takes the Anthropic origin (no /v1); the others an OpenAI-style base URL. */
function baseUrlFor(kind, fake) {
  return kind === 'claude_code' ? fake.origin : fake.baseUrl;
}

/** Lines the summary must have: example.shipping_answer.v1 at 100% per harness and per harness:model. */
function missingSummaryRows(output) {
  const count = `${EVALUATED}/${EVALUATED}`;
  const wanted = SHIPPING_KINDS.flatMap((kind) => [`${kind}`, `${kind}:${SHIPPING_MODELS[kind]}`]);
  return wanted.filter(
    (label) =>
      !new RegExp(
        `example\\.shipping_answer\\.v1\\s+${label.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\s+100\\.0%\\s.*\\s${count}\\s*$`,
        'm',
      ).test(output),
  );
}

/**
 * The policy case's follow-up requests (the model's second round, carrying its tool results) whose
 * `normalize_customer` result is a refusal — not the server's `{"customer_id": ...}` — out of all of
 * them: every CLI must have handed the model's attempt back refused (Claude Code's permission
 * denial, Codex's failed exec script, OpenCode's unavailable tool, Pi's tool not found).
 */
function refusedAttempts(fake, { lastUserText, trailingToolResults }, prompt) {
  const followUps = fake.modelRequests.filter(
    (request) => lastUserText(request).includes(prompt) && trailingToolResults(request).length > 0,
  );
  const refused = followUps.filter((request) =>
    trailingToolResults(request).some(
      (result) => /normalize_customer$/.test(result.name ?? '') && !/customer_id/.test(result.text),
    ),
  );
  return { followUps: followUps.length, refused: refused.length };
}

/**
 * Runs `command` with stdout echoed and kept, watching its descendants; resolves its exit, output and
 * the descendants still running when it exited. (A leaked process may hold the stdout pipe open, so
 * the output is awaited for a few seconds after the exit, not until the pipe closes.)
 */
function runWatched(command, args, options, repo) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'inherit'] });
    const watch = watchDescendants(child.pid, { repo });
    let output = '';
    child.stdout.on('data', (chunk) => {
      process.stdout.write(chunk);
      output += chunk;
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      const processes = watch.survivors();
      const done = () => resolve({ code: code ?? signal, output, processes });
      const timer = setTimeout(() => {
        child.stdout.destroy();
        done();
      }, 5000);
      child.stdout.once('close', () => {
        clearTimeout(timer);
        done();
      });
    });
  });
}

/**
 * Runs the shipping suite on the four native CLIs; `env` carries M3_<KIND>_EXECUTABLE (run.js sets
 * them from the cache). Resolves true when every check held.
 */
async function runNativeShipping({ repo, env, log }) {
  const executables = Object.fromEntries(
    SHIPPING_KINDS.map((kind) => [kind, env[`M3_${kind.toUpperCase()}_EXECUTABLE`]]),
  );
  const absent = SHIPPING_KINDS.filter((kind) => !executables[kind]);
  if (absent.length > 0) {
    log(`shipping: no executable for ${absent.join(', ')} (install them: npm run e2e:real-agents -- --only shipping)`);
    return false;
  }
  const testing = require(join(repo, 'testing.js'));
  const { FakeModelServer } = testing;
  const { scriptShippingModel, PROMPTS } = require(join(repo, 'examples', 'fixtures', 'shipping', 'shippingModel.js'));
  // 4 harnesses × 3 cases × 2 trials, one or two model rounds each, plus Codex's discovery rounds
  // and whatever side calls a CLI makes on its own.
  const fake = scriptShippingModel(new FakeModelServer({ maxRequests: 400, maxRounds: 4 }));
  await fake.start();
  try {
    const agents = SHIPPING_KINDS.map((kind) => ({
      harness: kind,
      models: [SHIPPING_MODELS[kind]],
      executable: executables[kind],
      baseUrl: baseUrlFor(kind, fake),
    }));
    mkdirSync(join(repo, '.m3'), { recursive: true });
    const args = [
      join(repo, 'bin', 'm3.js'),
      'test',
      '--results-db',
      join('.m3', 'native-shipping.sqlite'),
      ...SHIPPING_KINDS.flatMap((kind) => ['--harness', `${kind}=${SHIPPING_MODELS[kind]}`]),
      '--trials',
      String(TRIALS),
      '--',
      '--config',
      join('examples', 'native', 'jest.config.js'),
      'native/shipping\\.test\\.ts$',
    ];
    log(`\n$ M3_SHIPPING_NATIVE_AGENTS=... m3 ${args.slice(1).join(' ')}`);
    const started = Date.now();
    const { code, output, processes } = await runWatched(
      process.execPath,
      args,
      { cwd: repo, env: { ...env, M3_SHIPPING_NATIVE_AGENTS: JSON.stringify(agents) } },
      repo,
    );
    const seconds = ((Date.now() - started) / 1000).toFixed(0);
    const problems = [];
    if (code !== 0) problems.push(`m3 test exited ${code}`);
    const missing = missingSummaryRows(output);
    if (missing.length > 0) {
      problems.push(`the summary lacks the example.shipping_answer.v1 100% rows of ${missing.join(', ')}`);
    }
    if (fake.limitViolations.length > 0) problems.push(`the fake model hit ${JSON.stringify(fake.limitViolations[0])}`);
    const dialects = [...new Set(fake.modelRequests.map((request) => request.dialect))].sort();
    if (dialects.join() !== DIALECTS.join()) problems.push(`the fake was asked in ${dialects.join(', ')}`);
    const attempts = refusedAttempts(fake, testing, PROMPTS.policy);
    if (attempts.followUps !== SHIPPING_KINDS.length * TRIALS || attempts.refused !== attempts.followUps) {
      problems.push(
        `the policy case's normalize_customer came back refused in ${attempts.refused} of ` +
          `${attempts.followUps} follow-up requests (want ${SHIPPING_KINDS.length * TRIALS})`,
      );
    }
    if (processes.alive.length > 0) {
      problems.push(
        `${processes.alive.length} process(es) left: ${processes.alive.map((p) => `${p.pid} ${p.cmdline.slice(0, 120)}`).join('; ')}`,
      );
    }
    log(
      `shipping: ${seconds} s, ${fake.modelRequests.length} model requests (${dialects.join(', ')}), ` +
        `normalize_customer refused in ${attempts.refused}/${attempts.followUps} policy follow-ups, ` +
        `${processes.seen} processes seen, ${problems.length === 0 ? 'every check held' : problems.join('; ')}`,
    );
    return problems.length === 0;
  } finally {
    await fake.close();
  }
}

module.exports = { runNativeShipping, SHIPPING_KINDS, SHIPPING_MODELS, missingSummaryRows };
