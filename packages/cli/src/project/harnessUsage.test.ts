import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findTestFiles, harnessUsesIn, scanHarnessUses } from './harnessUsage';

describe('harness uses in test files', () => {
  test('finds each harness kind, the acp manifest command and a native executable', () => {
    const text = [
      "const acp = { harness: 'acp', manifest: { command: 'node', args: ['dist/agent.js'] }, models: ['m'] };",
      "describe.m3('s', { agents: [acp, { harness: \"codex\", models: ['gpt'], executable: '/opt/codex' }, { harness: 'openai', model: 'x' }] }, () => {});",
    ].join('\n');
    expect(harnessUsesIn(text, 't.test.ts')).toEqual([
      { kind: 'acp', command: 'node', file: 't.test.ts' },
      { kind: 'codex', command: '/opt/codex', file: 't.test.ts' },
      { kind: 'openai', command: null, file: 't.test.ts' },
    ]);
  });

  test('a manifest built elsewhere leaves the command unknown rather than borrowing another entry', () => {
    const text = "const agents = [{ harness: 'acp', manifest, models: ['a'] }, { harness: 'pi', models: ['b'] }];";
    expect(harnessUsesIn(text, 'x')).toEqual([
      { kind: 'acp', command: null, file: 'x' },
      { kind: 'pi', command: null, file: 'x' },
    ]);
  });

  test('reads test files of the project but not node_modules, dist or hidden folders', () => {
    const folder = mkdtempSync(join(tmpdir(), 'm3-harness-'));
    try {
      for (const dir of ['tests', 'src/__tests__', 'node_modules/x', 'dist', '.cache'])
        mkdirSync(join(folder, dir), { recursive: true });
      const entry = "export const a = { harness: 'claude_code', models: ['sonnet'] };";
      for (const file of [
        'tests/a.m3.test.ts',
        'src/__tests__/b.ts',
        'src/c.spec.js',
        'node_modules/x/d.test.js',
        'dist/e.test.js',
        '.cache/f.test.ts',
        'src/g.ts',
      ]) {
        writeFileSync(join(folder, file), entry);
      }
      expect(findTestFiles(folder).map((f) => f.slice(folder.length + 1))).toEqual([
        'src/__tests__/b.ts',
        'src/c.spec.js',
        'tests/a.m3.test.ts',
      ]);
      const scan = scanHarnessUses(folder);
      expect(scan.filesRead).toBe(3);
      expect(scan.uses.map((u) => `${u.kind} ${u.file}`)).toEqual([
        'claude_code src/__tests__/b.ts',
        'claude_code src/c.spec.js',
        'claude_code tests/a.m3.test.ts',
      ]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
