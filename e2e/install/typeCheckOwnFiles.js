#!/usr/bin/env node
// Type-checks the user's files and sf-m3's declarations in an installed project, with the
// project's own TypeScript, as `tsc --noEmit -p <tsconfig>` would report them, for several
// tsconfigs in one process. Other packages' declarations (the MCP SDK, zod, @types/node, the
// TypeScript libs: about 700 of the 900 files) are loaded, resolved and used where sf-m3's types
// reach into them, but not checked file by file: an error inside them is not sf-m3's to answer
// for, and checking them is most of tsc's time. A mistake in sf-m3's declarations, an import that
// does not resolve, or a type the user's file cannot use is still reported in the file it is in.
// The programs share the parsed and bound declaration files of node_modules (see sharedSourceFile).
// Prints one JSON array: `[{ tsconfig, code, output, checked, skipped }]` (code 0 when there are no
// diagnostics, else 2 as tsc exits; output is tsc's diagnostic text; `checked` the files checked,
// relative to the project; `skipped` how many other packages' files were not).
// Usage (in the project): node typeCheckOwnFiles.js <tsconfig.json>...
'use strict';

const path = require('node:path');

const project = process.cwd();
// The project's TypeScript, not this repository's: the check is about the version the user has.
const ts = require(require.resolve('typescript', { paths: [project] }));

/** The package a file belongs to when it sits in a node_modules folder (the innermost one). */
function packageOf(fileName) {
  const match = /.*\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(fileName.split(path.sep).join('/'));
  return match === null ? null : match[1];
}

/** The user's own files and sf-m3's (sf-m3, @sf-m3/*): the files the check answers for. */
function isOwnFile(fileName) {
  const owner = packageOf(fileName);
  return owner === null || owner === 'sf-m3' || owner.startsWith('@sf-m3/');
}

/**
 * The options, besides module and moduleResolution, that change how a file is parsed or bound
 * (TypeScript marks them so). The modes differ only in those two, which reach a declaration file
 * solely through what the program passes to getSourceFile (languageVersion, impliedNodeFormat, the
 * module detection) and the detection marks a declaration file a module by its own imports and
 * exports under every setting; so a parsed declaration file is the same in every mode.
 */
const SOURCE_FILE_OPTIONS = ts.optionDeclarations
  .filter((option) => option.affectsSourceFile || option.affectsBindDiagnostics)
  .filter((option) => option.name !== 'module' && option.name !== 'moduleResolution');

/** Parsed declaration files shared by the programs of this process, by their key. */
const sharedDeclarationFiles = new Map();

/**
 * A compiler host whose declaration files come from the earlier programs of this process when
 * they were parsed with the same settings: the three modes load the same ~780 files, and parsing
 * and binding them again was a third of each program's time. The user's own (non-declaration)
 * files are parsed per program, as module detection may differ for them.
 */
function sharingHost(options) {
  const host = ts.createCompilerHost(options);
  const readSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersionOrOptions, onError, shouldCreate) => {
    if (!ts.isDeclarationFileName(fileName)) {
      return readSourceFile(fileName, languageVersionOrOptions, onError, shouldCreate);
    }
    const fileOptions =
      typeof languageVersionOrOptions === 'object'
        ? [
            languageVersionOrOptions.languageVersion,
            languageVersionOrOptions.impliedNodeFormat,
            languageVersionOrOptions.jsDocParsingMode,
          ]
        : [languageVersionOrOptions];
    const key = JSON.stringify([SOURCE_FILE_OPTIONS.map((option) => options[option.name]), fileOptions, fileName]);
    if (!shouldCreate && sharedDeclarationFiles.has(key)) return sharedDeclarationFiles.get(key);
    const sourceFile = readSourceFile(fileName, languageVersionOrOptions, onError, shouldCreate);
    if (sourceFile !== undefined) sharedDeclarationFiles.set(key, sourceFile);
    return sourceFile;
  };
  return host;
}

const formatHost = {
  getCanonicalFileName: (fileName) => fileName,
  getCurrentDirectory: () => project,
  getNewLine: () => ts.sys.newLine,
};

/** Checks one tsconfig's program: its global diagnostics and those of every own file. */
function typeCheck(tsconfig) {
  const configDiagnostics = [];
  const parsed = ts.getParsedCommandLineOfConfigFile(
    path.resolve(tsconfig),
    { noEmit: true },
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (diagnostic) => configDiagnostics.push(diagnostic) },
  );
  if (parsed === undefined) {
    return { tsconfig, code: 1, output: ts.formatDiagnostics(configDiagnostics, formatHost), checked: [], skipped: 0 };
  }
  const program = ts.createProgram({
    rootNames: parsed.fileNames,
    options: parsed.options,
    projectReferences: parsed.projectReferences,
    host: sharingHost(parsed.options),
    configFileParsingDiagnostics: ts.getConfigFileParsingDiagnostics(parsed),
  });
  const own = program.getSourceFiles().filter((file) => isOwnFile(file.fileName));
  const diagnostics = [
    ...program.getConfigFileParsingDiagnostics(),
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
  ];
  for (const file of own) {
    diagnostics.push(...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file));
  }
  const sorted = ts.sortAndDeduplicateDiagnostics(diagnostics);
  return {
    tsconfig,
    code: sorted.length === 0 ? 0 : 2,
    output: ts.formatDiagnostics(sorted, formatHost),
    checked: own.map((file) => path.relative(project, file.fileName).split(path.sep).join('/')),
    skipped: program.getSourceFiles().length - own.length,
  };
}

process.stdout.write(`${JSON.stringify(process.argv.slice(2).map(typeCheck))}\n`);
