#!/usr/bin/env node
// Type-checks several TypeScript projects in one process, as `tsc --noEmit -p <tsconfig>` would each
// one, and prints one JSON array: `[{ tsconfig, code, output }]` (code 0 when the project has no
// diagnostics, else 2 as tsc exits; output is tsc's plain diagnostic text). The projects share parsed
// and bound source files (lib files, @types, package sources), keyed like TypeScript's own
// DocumentRegistry by the options that change a parsed file, so each file is parsed once; every
// project is still checked by its own program with its own options.
// With --own-files, only the projects' own files (the tsconfig's `files`/`include`) are checked, with
// the program's global and option diagnostics: imported sources are still parsed and typed as far as
// the own files use them, but their bodies are left to the build that type-checks them anyway (`tsc -b`),
// which makes a type test over a package's sources several times cheaper.
// Usage: node scripts/type-check-projects.js [--own-files] <tsconfig.json>...
'use strict';

const path = require('node:path');
const ts = require('typescript');

/** The options whose value changes how a file is parsed or bound (TypeScript marks them so). */
const SOURCE_FILE_OPTIONS = ts.optionDeclarations.filter((o) => o.affectsSourceFile || o.affectsBindDiagnostics);

/** Parsed source files shared by every project of this process, by options key and file name. */
const sharedSourceFiles = new Map();

/** The key of the options that change a parsed file, so files are only shared where they are equal. */
function sourceFileKey(options, languageVersionOrOptions) {
  const settings = SOURCE_FILE_OPTIONS.map((o) => options[o.name]);
  const fileOptions =
    typeof languageVersionOrOptions === 'object'
      ? [languageVersionOrOptions.languageVersion, languageVersionOrOptions.impliedNodeFormat]
      : [languageVersionOrOptions];
  return JSON.stringify([settings, fileOptions]);
}

/** Type-checks one project, as `tsc --noEmit -p tsconfig` does (only its own files when `ownFiles`). */
function typeCheck(tsconfig, ownFiles) {
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
    ...(ownFiles ? ownFileDiagnostics(program, parsed.fileNames) : ts.getPreEmitDiagnostics(program)),
  ]);
  return {
    tsconfig,
    code: diagnostics.length === 0 ? 0 : 2,
    output: ts.formatDiagnostics(diagnostics, formatHost),
  };
}

/** The diagnostics `getPreEmitDiagnostics` gives, restricted to the named files of the program. */
function ownFileDiagnostics(program, fileNames) {
  const sourceFiles = fileNames.map((fileName) => program.getSourceFile(fileName)).filter((f) => f !== undefined);
  return [
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...sourceFiles.flatMap((sourceFile) => [
      ...program.getSyntacticDiagnostics(sourceFile),
      ...program.getSemanticDiagnostics(sourceFile),
    ]),
  ];
}

const OWN_FILES_FLAG = '--own-files';
const args = process.argv.slice(2);
const ownFiles = args.includes(OWN_FILES_FLAG);
const tsconfigs = args.filter((arg) => arg !== OWN_FILES_FLAG);
process.stdout.write(`${JSON.stringify(tsconfigs.map((tsconfig) => typeCheck(tsconfig, ownFiles)))}\n`);
