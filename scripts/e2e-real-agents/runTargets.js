// What `npm run e2e:real-agents [-- --only a,b] [--no-build] [jest args]` runs: the targets and
// the arguments left for Jest. Targets: `acp` (Gemini CLI and Claude Code ACP through the acp
// harness), each native kind (its CLI through its native harness) and `math` (the examples' math
// matrix through `m3 test --harness opencode=… --harness codex=… --trials 2`) and `shipping` (issue
// 12's shipping suite through `m3 test` with all four native harnesses).
'use strict';

const { NATIVE_KINDS } = require('./nativeAgents');

const TARGETS = ['acp', ...NATIVE_KINDS, 'math', 'shipping'];

/** The native CLIs the math matrix drives. */
const MATH_KINDS = ['opencode', 'codex'];
/** The native CLIs the shipping suite drives: all of them. */
const SHIPPING_KINDS = NATIVE_KINDS;

function parseTargetList(value) {
  const targets = value
    .split(',')
    .map((t) => t.trim().replace(/-/g, '_'))
    .filter((t) => t.length > 0);
  const unknown = targets.filter((t) => !TARGETS.includes(t));
  if (targets.length === 0 || unknown.length > 0) {
    throw new Error(
      `--only ${value}: ${unknown.length > 0 ? `unknown target ${unknown.join(', ')}` : 'no target'}; ` +
        `use a comma-separated list of ${TARGETS.join(', ')}`,
    );
  }
  return [...new Set(targets)];
}

/**
 * Splits the script's arguments: `--only LIST` / `--only=LIST` (default: every target) and
 * `--no-build` are the runner's, everything else goes to Jest (e.g. `-t 'two turns'`).
 */
function parseRunArgs(argv) {
  let targets = TARGETS;
  let build = true;
  const jestArgs = [];
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg === '--only') {
      if (argv[i + 1] === undefined) throw new Error(`--only needs a list: --only ${TARGETS.join(',')}`);
      targets = parseTargetList(argv[i + 1]);
      i += 1;
    } else if (arg.startsWith('--only=')) {
      targets = parseTargetList(arg.slice('--only='.length));
    } else if (arg === '--no-build') {
      build = false;
    } else {
      jestArgs.push(arg);
    }
  }
  return { targets, build, jestArgs };
}

/** The native CLIs the targets need installed. */
function kindsToInstall(targets) {
  return NATIVE_KINDS.filter(
    (kind) =>
      targets.includes(kind) ||
      (targets.includes('math') && MATH_KINDS.includes(kind)) ||
      (targets.includes('shipping') && SHIPPING_KINDS.includes(kind)),
  );
}

/**
 * Jest test files (in this folder) of the targets: for a native kind `<kind>.test.js`, or with a
 * hyphen (`claude-code.test.js`), whichever `exists`; `math` and `shipping` run through `m3 test` instead.
 * Resolves the files and the kinds that have no test file yet.
 */
function testFilesOf(targets, exists = () => true) {
  const files = [];
  const untested = [];
  if (targets.includes('acp')) files.push('realAgents.test.js');
  const kinds = NATIVE_KINDS.filter((kind) => targets.includes(kind));
  if (kinds.length > 0) files.push('nativeAgents.test.js');
  for (const kind of kinds) {
    const file = [`${kind}.test.js`, `${kind.replace(/_/g, '-')}.test.js`].find(exists);
    if (file === undefined) untested.push(kind);
    else files.push(file);
  }
  return { files, untested };
}

module.exports = { TARGETS, MATH_KINDS, SHIPPING_KINDS, parseRunArgs, kindsToInstall, testFilesOf };
