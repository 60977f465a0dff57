#!/usr/bin/env node
// Rewrites references to the old out-of-repository spec ("SPEC §N") into references to the in-repository
// contract, docs/contract.md (same section numbers):
//   - code (.ts/.tsx/.js/.cjs/.mjs): `SPEC §N` → `contract §N`, and a bare word `SPEC` → `contract`;
//   - Markdown (.md): `SPEC §N` → `docs/contract.md §N` (plain text: package READMEs and guides ship to
//     npm, where a relative link out of the package would not resolve).
// A reference wrapped onto the next comment line ("(SPEC\n * §17)") is rewritten too. Idempotent: the
// output contains no "SPEC", so a second run changes nothing. Re-run it after merging other branches:
//   node scripts/rewrite-spec-references.js          rewrite, print each changed file and the totals
//   node scripts/rewrite-spec-references.js --check  change nothing; exit 1 if a reference is left
'use strict';

const { execFileSync } = require('node:child_process');
const { readFileSync, writeFileSync } = require('node:fs');
const { join, relative } = require('node:path');

const repoRoot = join(__dirname, '..');
const self = relative(repoRoot, __filename);
/** Files that name the old form on purpose: the contract's preface explains the mapping. */
const skipped = new Set([self, 'docs/contract.md']);
const codeExtensions = /\.(ts|tsx|js|cjs|mjs)$/;
const markdownExtension = /\.md$/;
/** `SPEC §N`, also across a line break inside a comment (`SPEC\n * §N`, `SPEC\n // §N`). */
const sectionReference = /\bSPEC((?:[ \t]*\r?\n[ \t]*(?:\*|\/\/)?)?[ \t]*)§/g;
/** A bare `SPEC` word (not `COMSPEC`, not `SPEC.md`, not an identifier such as `SPEC_X`). */
const bareWord = /\bSPEC\b(?![.\w])/g;

/** The tracked files this script may rewrite: code and Markdown, never itself, the contract or generated output. */
function candidateFiles() {
  const listed = execFileSync('git', ['ls-files', '-z'], { cwd: repoRoot, encoding: 'utf8' }).split('\0');
  return listed.filter(
    (file) =>
      file !== '' &&
      !skipped.has(file) &&
      !/(^|\/)(node_modules|dist)\//.test(file) &&
      (codeExtensions.test(file) || markdownExtension.test(file)),
  );
}

/** The file's text with every reference rewritten, and how many were. */
function rewrite(file, text) {
  let count = 0;
  const isMarkdown = markdownExtension.test(file);
  let next = text.replace(sectionReference, (_match, between) => {
    count += 1;
    return `${isMarkdown ? 'docs/contract.md' : 'contract'}${between}§`;
  });
  if (!isMarkdown) {
    next = next.replace(bareWord, () => {
      count += 1;
      return 'contract';
    });
  }
  return { next, count };
}

function main() {
  const check = process.argv.includes('--check');
  let files = 0;
  let references = 0;
  const leftInMarkdown = [];
  for (const file of candidateFiles()) {
    let text;
    try {
      text = readFileSync(join(repoRoot, file), 'utf8');
    } catch {
      continue; // listed by git but deleted in the work tree
    }
    const { next, count } = rewrite(file, text);
    if (count > 0) {
      files += 1;
      references += count;
      console.log(`${check ? 'would rewrite' : 'rewrote'} ${count} in ${file}`);
      if (!check) writeFileSync(join(repoRoot, file), next);
    }
    if (markdownExtension.test(file)) {
      next.split('\n').forEach((line, index) => {
        if (bareWord.test(line)) leftInMarkdown.push(`${file}:${index + 1}: ${line.trim()}`);
        bareWord.lastIndex = 0;
      });
    }
  }
  console.log(`${check ? 'would rewrite' : 'rewrote'} ${references} reference(s) in ${files} file(s)`);
  if (leftInMarkdown.length > 0) {
    console.log('Markdown that still says SPEC without a section (reword by hand to name docs/contract.md):');
    for (const line of leftInMarkdown) console.log(`  ${line}`);
  }
  if (check && (references > 0 || leftInMarkdown.length > 0)) process.exitCode = 1;
}

main();
