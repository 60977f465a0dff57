// The curated public surface of `sf-m3` (contract §16): the root package exports what users write
// against and no internal helper. The runtime names (read by a plain `node`, as an installed
// package is) and the value and type names of index.d.ts (read with the TypeScript checker) are
// snapshotted, the two must name the same values, and the internals issue 10 found stay out.
// Adding a name is a decision: update the snapshot (`npx jest e2e/publicSurface -u`) in the same
// commit as the docs that make it public. It reads the built packages.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import * as ts from 'typescript';
import { ensureBuilt, repoRoot } from './cli.testkit';

const INTERNALS = ['labelValue', 'lineageKey', 'buildJudgeRequest', 'canonicalInstant', 'linkToKit', 'newId'];

function runtimeNames(): Promise<string[]> {
  const script = `process.stdout.write(JSON.stringify(Object.keys(require(${JSON.stringify(repoRoot)}))))`;
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['-e', script], { cwd: repoRoot }, (error, stdout, stderr) => {
      if (error) reject(new Error(`require('sf-m3') failed: ${stderr}`));
      else resolve((JSON.parse(stdout) as string[]).sort());
    });
  });
}

/** Value and type exports of index.d.ts, as a user's TypeScript sees them. */
function declaredNames(): { values: string[]; types: string[] } {
  const file = join(repoRoot, 'index.d.ts');
  const program = ts.createProgram([file], {
    strict: true,
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    types: [],
    noEmit: true,
    skipLibCheck: true,
    esModuleInterop: true,
  });
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
