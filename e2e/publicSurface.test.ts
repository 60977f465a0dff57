// The curated public surface of `sf-m3` (contract §16) and of `@sf-m3/core` with its store entry
// `@sf-m3/core/store`: each exports what its users write against and no internal helper
// (`@sf-m3/core/internal` holds those, with no stability promise, and is not pinned here). The runtime names (read by a plain `node`, as an installed
// package is) and the value and type names of index.d.ts (read with the TypeScript checker) are
// snapshotted, the two must name the same values, and the internals issue 10 found stay out.
// Adding a name is a decision: update the snapshot (`npx jest e2e/publicSurface -u`) in the same
// commit as the docs that make it public. It reads the built packages.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ts from 'typescript';
import { ensureBuilt, repoRoot } from './cli.testkit';

const INTERNALS = ['labelValue', 'lineageKey', 'buildJudgeRequest', 'canonicalInstant', 'linkToKit', 'newId'];

/**
 * The public names `@sf-m3/core/internal` exports too, so that sf-m3's host side (the `m3` CLI, the
 * Jest environment outside the sandbox) never loads the kit's entry (e2e/lightImport.test.ts). They
 * are the very values `@sf-m3/core` exports, checked below; every other internal name stays out of
 * the public entries.
 */
const HOST_REEXPORTS = [
  'EventKind',
  'ExecutionNotFound',
  'JudgeErrorCode',
  'M3Error',
  'ModelValidationError',
  'REDACTED',
  'Redactor',
  'checkSurfaceThresholds',
  'collectRunSurfaceCoverage',
  'commandLineCanaries',
  'environmentCanaries',
  'fisherExactTest',
  'mergeSurfaceEvidence',
  'surfaceEvidenceOfRecords',
  'validateSurfaceThresholdConfig',
];

/** Runtime names already read, by entry: each entry is required by one `node` process per file. */
const runtimeNamesRead = new Map<string, Promise<string[]>>();

/** The runtime names of `entry` (a package name or path), required by a plain `node` (once per entry). */
function runtimeNames(entry: string = repoRoot): Promise<string[]> {
  let names = runtimeNamesRead.get(entry);
  if (names === undefined) {
    names = readRuntimeNames(entry);
    runtimeNamesRead.set(entry, names);
  }
  return names.then((read) => [...read]);
}

function readRuntimeNames(entry: string): Promise<string[]> {
  const script = `process.stdout.write(JSON.stringify(Object.keys(require(${JSON.stringify(entry)}))))`;
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['-e', script], { cwd: repoRoot }, (error, stdout, stderr) => {
      if (error) reject(new Error(`require(${JSON.stringify(entry)}) failed: ${stderr}`));
      else resolve((JSON.parse(stdout) as string[]).sort());
    });
  });
}

/** The declaration files this file reads: sf-m3's index.d.ts and those of the core entries. */
const DECLARATION_FILES = ['index.d.ts', 'packages/core/dist/index.d.ts', 'packages/core/dist/store/index.d.ts'].map(
  (file) => join(repoRoot, file),
);

/**
 * One TypeScript program over every declaration file read here, as a user's compiler options see
 * them: one program type-checks the shared declarations once, where a program per file did it again.
 */
let declarations: ts.Program | undefined;

/** Value and type exports of a declaration file (index.d.ts by default), as a user's TypeScript sees them. */
function declaredNames(file: string = join(repoRoot, 'index.d.ts')): { values: string[]; types: string[] } {
  if (!DECLARATION_FILES.includes(file)) throw new Error(`${file} is not in DECLARATION_FILES: add it there`);
  declarations ??= ts.createProgram(DECLARATION_FILES, {
    strict: true,
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    types: [],
    noEmit: true,
    skipLibCheck: true,
    esModuleInterop: true,
  });
  const program = declarations;
  const diagnostics = ts
    .getPreEmitDiagnostics(program, program.getSourceFile(file))
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  expect(diagnostics).toEqual([]);
  const checker = program.getTypeChecker();
  const moduleSymbol = checker.getSymbolAtLocation(program.getSourceFile(file)!)!;
  const values: string[] = [];
  const types: string[] = [];
  for (const exported of checker.getExportsOfModule(moduleSymbol)) {
    const target = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    (target.flags & ts.SymbolFlags.Value ? values : types).push(exported.name);
  }
  return { values: values.sort(), types: types.sort() };
}

beforeAll(() => {
  ensureBuilt();
});

describe("sf-m3's public surface", () => {
  test('the runtime export list', async () => {
    const names = await runtimeNames();
    for (const internal of INTERNALS) expect(names).not.toContain(internal);
    expect(names.length).toBeLessThan(100);
    process.stdout.write(`sf-m3 exports ${names.length} runtime names (was 177 before issue 10)\n`);
    expect(names).toMatchSnapshot();
  }, 60_000);

  test('index.d.ts declares the same values, and the types users write with', async () => {
    const declared = declaredNames();
    expect(declared.values).toEqual(await runtimeNames());
    for (const internal of INTERNALS) expect([...declared.values, ...declared.types]).not.toContain(internal);
    expect(declared.types).toEqual(expect.arrayContaining(['ToolCallResult', 'ExecutionResult', 'ExecutionStore']));
    expect(declared.types).toMatchSnapshot();
  }, 120_000);
});

/** `@sf-m3/core`'s entries: the package name a user requires, and the declarations its types map to. */
const CORE_ENTRIES = [
  { entry: '@sf-m3/core', declarations: 'packages/core/dist/index.d.ts' },
  { entry: '@sf-m3/core/store', declarations: 'packages/core/dist/store/index.d.ts' },
] as const;

describe("@sf-m3/core's public surface (issue 26: a front door)", () => {
  /** The names only `@sf-m3/core/internal` exports (its public re-exports left out). */
  let internalNames: string[];
  beforeAll(async () => {
    internalNames = (await runtimeNames('@sf-m3/core/internal')).filter((name) => !HOST_REEXPORTS.includes(name));
  }, 60_000);

  test('the public names @sf-m3/core/internal re-exports are the very values @sf-m3/core exports', async () => {
    const script = `
      const core = require('@sf-m3/core');
      const internal = require('@sf-m3/core/internal');
      const names = ${JSON.stringify(HOST_REEXPORTS)};
      process.stdout.write(JSON.stringify(names.filter((name) => !(name in internal) || internal[name] !== core[name])));
    `;
    const differing = await new Promise<string[]>((resolve, reject) => {
      execFile(process.execPath, ['-e', script], { cwd: repoRoot }, (error, stdout, stderr) => {
        if (error) reject(new Error(`reading @sf-m3/core/internal failed: ${stderr}`));
        else resolve(JSON.parse(stdout) as string[]);
      });
    });
    expect(differing).toEqual([]);
  }, 60_000);

  test("@sf-m3/core/internal's names are exported by neither core entry nor sf-m3", async () => {
    expect(internalNames).toEqual(expect.arrayContaining(['newId']));
    const [core, store, root] = await Promise.all([
      runtimeNames('@sf-m3/core'),
      runtimeNames('@sf-m3/core/store'),
      runtimeNames(),
    ]);
    for (const exposed of [core, store, root])
      expect(internalNames.filter((name) => exposed.includes(name))).toEqual([]);
    // The internals issue 10 found: the store helpers among them are for store authors only.
    for (const internal of INTERNALS) expect(core).not.toContain(internal);
    expect(store).toEqual(expect.arrayContaining(['lineageKey', 'labelValue', 'canonicalInstant']));
  }, 60_000);

  test.each(CORE_ENTRIES)(
    '$entry: its runtime names and declared types are pinned, and it names values with no wildcard',
    async ({ entry, declarations }) => {
      const names = await runtimeNames(entry);
      const declared = declaredNames(join(repoRoot, declarations));
      expect(declared.values).toEqual(names);
      for (const internal of internalNames) expect(declared.types).not.toContain(internal);
      // Named lists only: a wildcard re-export would let any new export of a folder through unreviewed.
      expect(readFileSync(join(repoRoot, declarations), 'utf8')).not.toMatch(/export \*/);
      process.stdout.write(`${entry} exports ${names.length} runtime names and ${declared.types.length} types\n`);
      expect({ values: names, types: declared.types }).toMatchSnapshot();
    },
    120_000,
  );

  test('the store entry re-exports the public store names from the same modules as @sf-m3/core', async () => {
    const script = `
      const core = require('@sf-m3/core');
      const store = require('@sf-m3/core/store');
      process.stdout.write(JSON.stringify(Object.keys(store).filter((name) => name in core && core[name] !== store[name])));
    `;
    const differing = await new Promise<string[]>((resolve, reject) => {
      execFile(process.execPath, ['-e', script], { cwd: repoRoot }, (error, stdout, stderr) => {
        if (error) reject(new Error(`reading the core entries failed: ${stderr}`));
        else resolve(JSON.parse(stdout) as string[]);
      });
    });
    expect(differing).toEqual([]);
  }, 60_000);
});
