// A bare `require('sf-m3')` or `require('@sf-m3/core')` (or its `/store` and `/internal` entries)
// stays light (issue 26): it loads neither openai, pino, ajv, fast-check, the native sqlite3 module,
// @sf-m3/store-sqlite, Jest's globals nor an agent driver. Each is
// required where it is first used (a judge, a log line, a schema check, an opened database, an
// agent execution). Jest evaluates modules again in every test file, so an eager import here
// costs every test file of every user. The probe is a plain `node` on the built packages, as an
// installed package is read; on a failure it prints the chain of requires that loaded the module.
import { execFile } from 'node:child_process';
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
function probe(entry: string): Promise<Offence[]> {
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
    const heavy = ${JSON.stringify(HEAVY.map((h) => ({ name: h.name, file: h.file.source })))};
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
