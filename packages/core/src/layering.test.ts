// The layering of @sf-m3/core's folders (docs/ARCHITECTURE.md, "Layering"), checked over the real
// import graph of its source: no file imports itself back through a chain (eslint's import/no-cycle),
// and the layers the kit is built on never import the kit at run time. Type-only imports are
// allowed: they vanish from the compiled JavaScript.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import * as ts from 'typescript';

const SOURCE = __dirname;

/** Folders below the kit: they may use what the kit is built from, never the kit itself. */
const BELOW_KIT = ['trace', 'client', 'execution', 'agents', 'transport', 'servers', 'store', 'evaluation'];

interface ImportEdge {
  readonly from: string;
  readonly to: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === '__fixtures__' ? [] : sourceFiles(path);
    return /\.ts$/.test(entry.name) && !/\.(test|testkit|d)\.ts$/.test(entry.name) ? [path] : [];
  });
}

/** True when an import or export brings nothing at run time (`import type`, `{ type A }` only). */
function typeOnly(node: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isImportDeclaration(node)) {
    const clause = node.importClause;
    if (clause === undefined) return false; // a bare `import './x'` runs the module
    if (clause.isTypeOnly) return true;
    const named = clause.namedBindings;
    return clause.name === undefined && named !== undefined && ts.isNamedImports(named)
      ? named.elements.length > 0 && named.elements.every((element) => element.isTypeOnly)
      : false;
  }
  if (node.isTypeOnly) return true;
  const clause = node.exportClause;
  return clause !== undefined && ts.isNamedExports(clause)
    ? clause.elements.length > 0 && clause.elements.every((element) => element.isTypeOnly)
    : false;
}

function resolveRelative(from: string, specifier: string, files: ReadonlySet<string>): string | undefined {
  const base = resolve(dirname(from), specifier);
  return [`${base}.ts`, join(base, 'index.ts')].find((candidate) => files.has(candidate));
}

/** Every run-time import between core's source files. */
function runtimeImports(): ImportEdge[] {
  const files = sourceFiles(SOURCE);
  const known = new Set(files);
  return files.flatMap((file) => {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
    return source.statements.flatMap((statement): ImportEdge[] => {
      if (!ts.isImportDeclaration(statement) && !ts.isExportDeclaration(statement)) return [];
      const specifier = statement.moduleSpecifier;
      if (specifier === undefined || !ts.isStringLiteral(specifier) || !specifier.text.startsWith('.')) return [];
      if (typeOnly(statement)) return [];
      const to = resolveRelative(file, specifier.text, known);
      return to === undefined ? [] : [{ from: file, to }];
    });
  });
}

const folderOf = (file: string): string => relative(SOURCE, file).split(sep)[0]!.replace(/\.ts$/, '');
const shown = (file: string): string => relative(SOURCE, file);

/** The import cycles (strongly connected groups of more than one file), each as its files. */
function cycles(edges: readonly ImportEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) next.set(from, [...(next.get(from) ?? []), to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const target of next.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(node, Math.min(low.get(node)!, index.get(target)!));
    }
    if (low.get(node) === index.get(node)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(shown(member));
      } while (member !== node);
      if (group.length > 1) found.push(group.sort());
    }
  };
  for (const node of next.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe('the layering of @sf-m3/core', () => {
  const edges = runtimeImports();

  test('reads the import graph (a sanity check that the reader sees the source)', () => {
    expect(edges.length).toBeGreaterThan(500);
    expect(edges).toContainEqual({
      from: join(SOURCE, 'kit', 'MCPTestKit.ts'),
      to: join(SOURCE, 'client', 'DirectClient.ts'),
    });
  });

  test('no file imports itself back through a chain of run-time imports', () => {
    expect(cycles(edges)).toEqual([]);
  });

  test('the layers the kit is built from never import the kit at run time', () => {
    const upward = edges
      .filter(({ from, to }) => BELOW_KIT.includes(folderOf(from)) && folderOf(to) === 'kit')
      .map(({ from, to }) => `${shown(from)} -> ${shown(to)}`);
    expect(upward).toEqual([]);
  });
});
