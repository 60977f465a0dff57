#!/usr/bin/env node
// Type-checks several TypeScript projects in one process, as `tsc --noEmit -p <tsconfig>` would each
// one, and prints one JSON array: `[{ tsconfig, code, output }]` (code 0 when the project has no
// diagnostics, else 2 as tsc exits; output is tsc's plain diagnostic text). The projects share parsed
// and bound source files (lib files, @types, package sources), keyed like TypeScript's own
// DocumentRegistry by the options that change a parsed file, so each file is parsed once; every
// project is still checked by its own program with its own options.
// With `--skip-built-by <tsconfig.json>`, the files that `tsc -b <that tsconfig.json>` compiles (its
// project and every project it references) get only their syntax checked here: the build already
// type-checks them under the same strict options, and a project that reaches them (relative imports
// of a unit test, `paths` to a package's sources) would otherwise check every one of them again.
// Every other file of each project is checked in full, as tsc would.
// Usage: node scripts/type-check-projects.js [--skip-built-by <tsconfig.json>] <tsconfig.json>...
'use strict';

const path = require('node:path');
const ts = require('typescript');

/** The options whose value changes how a file is parsed or bound (TypeScript marks them so). */
const SOURCE_FILE_OPTIONS = ts.optionDeclarations.filter((o) => o.affectsSourceFile || o.affectsBindDiagnostics);

/** Parsed source files shared by every project of this process, by options key and file name. */
const sharedSourceFiles = new Map();

/**
 * The options whose default follows from others, by the value they take in effect: a tsconfig that
 * writes `moduleResolution: node10` next to `module: commonjs` parses its files as one that leaves it
 * out (TypeScript's own functions for these settings; the raw value where one is missing).
 */
const EFFECTIVE_OPTIONS = {
  target: ts.getEmitScriptTarget,
  module: ts.getEmitModuleKind,
  moduleResolution: ts.getEmitModuleResolutionKind,
  moduleDetection: ts.getEmitModuleDetectionKind,
};

/** The key of the options that change a parsed file, so files are only shared where they are equal. */
function sourceFileKey(options, languageVersionOrOptions) {
  const settings = SOURCE_FILE_OPTIONS.map((o) => {
    const effective = EFFECTIVE_OPTIONS[o.name];
    return typeof effective === 'function' ? effective(options) : options[o.name];
  });
  const fileOptions =
    typeof languageVersionOrOptions === 'object'
      ? [languageVersionOrOptions.languageVersion, languageVersionOrOptions.impliedNodeFormat]
      : [languageVersionOrOptions];
  return JSON.stringify([settings, fileOptions]);
}

/**
 * Every file `tsc -b rootTsconfig` compiles: the file names of that project and of each project it
 * references, transitively, as absolute paths.
 */
function builtFiles(rootTsconfig) {
  const files = new Set();
  const visited = new Set();
  const visit = (tsconfig) => {
    const file = ts.resolveProjectReferencePath({ path: tsconfig });
    if (visited.has(file)) return;
    visited.add(file);
    const parsed = ts.getParsedCommandLineOfConfigFile(
      file,
      {},
      { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
    );
    if (parsed === undefined) throw new Error(`${file}: cannot read this tsconfig, which --skip-built-by reaches`);
    for (const name of parsed.fileNames) files.add(path.resolve(name));
    for (const reference of parsed.projectReferences ?? []) visit(reference.path);
  };
  visit(path.resolve(rootTsconfig));
  return files;
}

/**
 * The diagnostics `getPreEmitDiagnostics` gives, except the semantic ones of files in `built`:
 * options, global and syntax diagnostics of every file, semantic diagnostics of the others.
 */
function diagnosticsSkippingBuilt(program, built) {
  const diagnostics = [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics()];
  for (const sourceFile of program.getSourceFiles()) {
    diagnostics.push(...program.getSyntacticDiagnostics(sourceFile));
    if (!built.has(path.resolve(sourceFile.fileName))) diagnostics.push(...program.getSemanticDiagnostics(sourceFile));
  }
  return diagnostics;
}

/** Type-checks one project, as `tsc --noEmit -p tsconfig` does (`built`: files whose types the build checks). */
function typeCheck(tsconfig, built) {
  const formatHost = {
    getCanonicalFileName: (fileName) => fileName,
    getCurrentDirectory: () => process.cwd(),
    getNewLine: () => ts.sys.newLine,
  };
  const configDiagnostics = [];
  const parsed = ts.getParsedCommandLineOfConfigFile(
    path.resolve(tsconfig),
    { noEmit: true },
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => configDiagnostics.push(diagnostic),
    },
  );
  if (parsed === undefined) {
    return { tsconfig, code: 1, output: ts.formatDiagnostics(configDiagnostics, formatHost) };
  }
  const host = ts.createCompilerHost(parsed.options);
  const readSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersionOrOptions, onError, shouldCreate) => {
    const key = `${sourceFileKey(parsed.options, languageVersionOrOptions)}\0${fileName}`;
    if (!shouldCreate && sharedSourceFiles.has(key)) return sharedSourceFiles.get(key);
    const sourceFile = readSourceFile(fileName, languageVersionOrOptions, onError, shouldCreate);
    if (sourceFile !== undefined) sharedSourceFiles.set(key, sourceFile);
    return sourceFile;
  };
  const program = ts.createProgram({
    rootNames: parsed.fileNames,
    options: parsed.options,
    projectReferences: parsed.projectReferences,
    host,
    configFileParsingDiagnostics: ts.getConfigFileParsingDiagnostics(parsed),
  });
  const diagnostics = ts.sortAndDeduplicateDiagnostics([
    ...program.getConfigFileParsingDiagnostics(),
    ...(built === null ? ts.getPreEmitDiagnostics(program) : diagnosticsSkippingBuilt(program, built)),
  ]);
  return {
    tsconfig,
    code: diagnostics.length === 0 ? 0 : 2,
    output: ts.formatDiagnostics(diagnostics, formatHost),
  };
}

const args = process.argv.slice(2);
let built = null;
if (args[0] === '--skip-built-by') {
  if (args[1] === undefined) throw new Error('--skip-built-by needs a tsconfig.json (the one `tsc -b` builds)');
  built = builtFiles(args[1]);
  args.splice(0, 2);
}
process.stdout.write(`${JSON.stringify(args.map((tsconfig) => typeCheck(tsconfig, built)))}\n`);
