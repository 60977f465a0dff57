// Reads the "Quick start (your project)" section of README.md: its files (each code block whose
// first line names the file, `// jest.config.js`), its shell commands and the summary it shows; and
// the install command of a package README's Setup. The install test runs the READMEs as written and
// fails when they drift.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The heading of the README section a new user follows. */
export const QUICK_START_HEADING = '## Quick start (your project)';

/** The heading of a package README's section that installs the package (`npm install …`). */
export const SETUP_HEADING = '## Setup';

/** One fenced code block: its info string (`ts`, `sh`, …) and its text. */
export interface CodeBlock {
  readonly lang: string;
  readonly text: string;
}

/** What the quick start tells a user to write and run. */
export interface QuickStart {
  /** Files by their path in the project (`jest.config.js`, `tests/shipping.test.ts`), text as written. */
  readonly files: ReadonlyMap<string, string>;
  /** Every command of its `sh` blocks, in order (`npm install …`, `npx m3 test`). */
  readonly commands: readonly string[];
  /** The summary block `npx m3 test` is said to print (the untagged block after the command). */
  readonly summary: string;
}

/** The text of the section under `heading`, up to the next `## ` heading. */
export function readmeSection(markdown: string, heading: string): string {
  const start = markdown.indexOf(`\n${heading}\n`);
  if (start === -1) throw new Error(`README.md has no "${heading}" section`);
  const body = markdown.slice(start + heading.length + 2);
  const end = body.search(/^## /m);
  return end === -1 ? body : body.slice(0, end);
}

/** The fenced code blocks of a Markdown text, in order. */
export function codeBlocks(markdown: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  const fence = /^```([^\n]*)\n([\s\S]*?)^```$/gm;
  for (let match = fence.exec(markdown); match !== null; match = fence.exec(markdown)) {
    blocks.push({ lang: match[1]!.trim(), text: match[2]! });
  }
  return blocks;
}

/** The project path a block's first line names (`// tests/shipping.test.ts`, `// tsconfig.json — …`), or null. */
export function namedFile(block: CodeBlock): string | null {
  const firstLine = block.text.split('\n', 1)[0]!;
  const match = /^\/\/ ([\w./-]+\.(?:js|ts|json))(?:\s|$)/.exec(firstLine);
  return match ? match[1]! : null;
}

/** Parses the quick start of `markdown` (README.md's text). */
export function parseQuickStart(markdown: string): QuickStart {
  const blocks = codeBlocks(readmeSection(markdown, QUICK_START_HEADING));
  const files = new Map<string, string>();
  const commands: string[] = [];
  let summary: string | null = null;
  for (const block of blocks) {
    const file = namedFile(block);
    if (file !== null) {
      if (files.has(file)) throw new Error(`README quick start writes ${file} twice`);
      files.set(file, block.text);
    } else if (block.lang === 'sh') {
      commands.push(...block.text.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('#')));
    } else if (block.lang === '' && summary === null && block.text.startsWith('m3 run ')) {
      summary = block.text;
    }
  }
  if (files.size === 0) throw new Error('README quick start names no files (a block starting `// jest.config.js`)');
  if (summary === null) throw new Error('README quick start shows no summary block starting "m3 run "');
  return { files, commands, summary };
}

/**
 * The `npm install` command naming `packageName` in the `sh` blocks of `markdown`'s section under
 * `heading`, without its trailing `# comment`.
 */
export function installCommand(markdown: string, heading: string, packageName: string): string {
  const lines = codeBlocks(readmeSection(markdown, heading))
    .filter((block) => block.lang === 'sh')
    .flatMap((block) => block.text.split('\n'))
    .map((line) => line.replace(/(^|\s)#.*$/, '').trim());
  const command = lines.find((line) => line.startsWith('npm install ') && line.split(/\s+/).includes(packageName));
  if (command === undefined)
    throw new Error(`README.md's "${heading}" has no \`npm install … ${packageName}\` command`);
  return command;
}

/** Reads and parses the repository's README.md. */
export function readQuickStart(repoRoot: string): QuickStart {
  return parseQuickStart(readFileSync(join(repoRoot, 'README.md'), 'utf8'));
}

/** A summary with its run ids replaced, so the README's example and a real run can be compared. */
export function normalizeRunIds(summary: string): string {
  return summary.replace(/run-[0-9a-f]{32}/g, 'run-<id>').trimEnd();
}
