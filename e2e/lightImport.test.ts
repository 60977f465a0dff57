// A bare `require('sf-m3')` or `require('@sf-m3/core')` (or its `/store` and `/internal` entries)
// stays light (issue 26): it loads neither openai, pino, ajv, fast-check, the native sqlite3 module,
// @sf-m3/store-sqlite, Jest's globals nor an agent driver. Each is
// required where it is first used (a judge, a log line, a schema check, an opened database, an
// agent execution). Jest evaluates modules again in every test file, so an eager import here
// costs every test file of every user. The probe is a plain `node` on the built packages, as an
// installed package is read; on a failure it prints the chain of requires that loaded the module.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { ensureBuilt, repoRoot } from './cli.testkit';

/** A module a bare import must not load: its name, and how its files' real paths look. */
interface HeavyModule {
  readonly name: string;
  readonly file: RegExp;
}

const HEAVY: readonly HeavyModule[] = [
  { name: 'openai', file: /\/node_modules\/openai\// },
  { name: 'pino', file: /\/node_modules\/pino\// },
  { name: 'ajv', file: /\/node_modules\/ajv\// },
  // contract §25: the fuzzer loads fast-check when a fuzz run starts, never on import.
  { name: 'fast-check', file: /\/node_modules\/fast-check\// },
  { name: 'sqlite3', file: /\/node_modules\/sqlite3\// },
  { name: '@sf-m3/store-sqlite', file: /\/packages\/store-sqlite\/dist\// },
  // The store entry ships the store contract suite; it loads Jest only when a test file calls it.
  { name: '@jest/globals', file: /\/node_modules\/@jest\/globals\// },
  {
    name: 'an agent driver',
    file: /\/packages\/core\/dist\/agents\/(OpenAIDriver|OpenAIHarness|acp\/AcpDriver|claude_code\/ClaudeCodeDriver|codex\/CodexDriver|opencode\/OpencodeDriver|pi\/PiDriver)\.js$/,
  },
];

/** One heavy module a probe saw loaded, with the files that required it, nearest first. */
interface Offence {
  readonly module: string;
  readonly chain: string[];
}

/**
 * Requires `entry` in a fresh `node` (from the repository root, as an installed project resolves
 * it) and returns the heavy modules it loaded, each with its require chain.
 */
function probe(entry: string, heavy: readonly HeavyModule[] = HEAVY): Promise<Offence[]> {
  const script = `
    const Module = require('node:module');
    const load = Module._load;
    const parentOf = new Map();
    Module._load = function (request, parent, isMain) {
      try {
        const file = Module._resolveFilename(request, parent, isMain);
        if (!parentOf.has(file)) parentOf.set(file, parent ? parent.filename : null);
      } catch {}
      return load.apply(this, arguments);
    };
    require(${JSON.stringify(entry)});
    const heavy = ${JSON.stringify(heavy.map((h) => ({ name: h.name, file: h.file.source })))};
    const offences = [];
    for (const { name, file } of heavy) {
      const loaded = Object.keys(require.cache).find((f) => new RegExp(file).test(f));
      if (loaded === undefined) continue;
      const chain = [loaded];
      for (let at = parentOf.get(loaded); at; at = parentOf.get(at)) chain.push(at);
      offences.push({ module: name, chain });
    }
    process.stdout.write(JSON.stringify(offences));
  `;
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['-e', script], { cwd: repoRoot }, (error, stdout, stderr) => {
      if (error) reject(new Error(`require(${JSON.stringify(entry)}) failed: ${stderr}`));
      else resolve(JSON.parse(stdout) as Offence[]);
    });
  });
}

/** Offences as readable lines: `openai <- …/LLMJudge.js <- …/index.js`. */
function describeOffences(offences: readonly Offence[]): string[] {
  const shown = (file: string) => (file.startsWith(repoRoot) ? file.slice(repoRoot.length + 1) : file);
  return offences.map(({ module, chain }) => `${module}: ${chain.map(shown).join(' <- ')}`);
}

beforeAll(() => {
  ensureBuilt();
});

describe('a bare import is light', () => {
  test.each([
    ['sf-m3', repoRoot],
    ['@sf-m3/core', '@sf-m3/core'],
    ['@sf-m3/core/store', '@sf-m3/core/store'],
    ['@sf-m3/core/internal', '@sf-m3/core/internal'],
  ])(
    "require('%s') loads no heavy module",
    async (_label, entry) => {
      expect(describeOffences(await probe(entry))).toEqual([]);
    },
    60_000,
  );

  test('the probe sees a heavy module that is loaded at import', async () => {
    const offences = await probe('pino');
    expect(offences.map((o) => o.module)).toEqual(['pino']);
  }, 60_000);

  test("every export of sf-m3 is defined once read, the lazy ones (the SQLite store's) too", async () => {
    const script = `
      const sfm3 = require(${JSON.stringify(repoRoot)});
      const before = Object.keys(require.cache).some((f) => f.includes('/packages/store-sqlite/dist/'));
      const undefinedNames = Object.keys(sfm3).filter((name) => sfm3[name] === undefined);
      const after = Object.keys(require.cache).some((f) => f.includes('/packages/store-sqlite/dist/'));
      process.stdout.write(JSON.stringify({ before, after, undefinedNames, schema: sfm3.SCHEMA_VERSION }));
    `;
    const seen = await new Promise<{ before: boolean; after: boolean; undefinedNames: string[]; schema: unknown }>(
      (resolve, reject) => {
        execFile(process.execPath, ['-e', script], { cwd: repoRoot }, (error, stdout, stderr) => {
          if (error) reject(new Error(`reading sf-m3's exports failed: ${stderr}`));
          else
            resolve(
              JSON.parse(stdout) as { before: boolean; after: boolean; undefinedNames: string[]; schema: unknown },
            );
        });
      },
    );
    expect(seen).toEqual({ before: false, after: true, undefinedNames: [], schema: expect.any(Number) });
  }, 60_000);
});

/** `@sf-m3/core`'s entry (the kit, about 235 modules): what a test file imports, never the host side. */
const KIT_ENTRY: readonly HeavyModule[] = [{ name: "@sf-m3/core's entry", file: /\/packages\/core\/dist\/index\.js$/ }];

/** A built file of this repository, by its path. */
const built = (file: string): string => join(repoRoot, file);

// Every `m3` command and every Jest process loads the host side, so it takes what it needs from
// `@sf-m3/core/internal` and `@sf-m3/core/store` (about 110 modules): the kit's entry cost each of
// them about 60 ms more.
describe("sf-m3's host side never loads @sf-m3/core's entry", () => {
  test.each([
    ['the SQLite store', built('packages/store-sqlite/dist/index.js')],
    ['the PostgreSQL store', built('packages/store-postgres/dist/index.js')],
    ["the preset's global setup", built('packages/jest-environment/dist/globalSetup.js')],
    ["the preset's global teardown", built('packages/jest-environment/dist/globalTeardown.js')],
    ["the preset's test environment", built('packages/jest-environment/dist/M3Environment.js')],
    ['the m3 CLI', built('packages/cli/dist/main.js')],
    ...['test', 'report', 'runs', 'merge', 'prune', 'ui', 'doctor', 'init'].map((command) => [
      `m3 ${command}`,
      built(`packages/cli/dist/commands/${command}.js`),
    ]),
  ])(
    '%s',
    async (_label, entry) => {
      expect(describeOffences(await probe(entry, KIT_ENTRY))).toEqual([]);
    },
    60_000,
  );

  test("the probe sees @sf-m3/core's entry where it is loaded", async () => {
    const offences = await probe('@sf-m3/core', KIT_ENTRY);
    expect(offences.map((o) => o.module)).toEqual(["@sf-m3/core's entry"]);
  }, 60_000);
});
