import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { piVersionOf } from './piVersion';

describe("Pi's version from its entry script", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'm3-pi-version-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('follows the .bin symlink to the package that names pi-coding-agent', () => {
    const pkg = join(dir, 'node_modules', '@mariozechner', 'pi-coding-agent');
    mkdirSync(join(pkg, 'dist'), { recursive: true });
    writeFileSync(
      join(pkg, 'package.json'),
      JSON.stringify({ name: '@mariozechner/pi-coding-agent', version: '0.73.1' }),
    );
    writeFileSync(join(pkg, 'dist', 'cli.js'), '');
    mkdirSync(join(dir, 'node_modules', '.bin'));
    symlinkSync(join(pkg, 'dist', 'cli.js'), join(dir, 'node_modules', '.bin', 'pi'));
    expect(piVersionOf(join(dir, 'node_modules', '.bin', 'pi'))).toBe('0.73.1');
  });

  it('is null for another package, a missing file, or no entry', () => {
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'something-else', version: '1.0.0' }));
    writeFileSync(join(dir, 'cli.js'), '');
    expect(piVersionOf(join(dir, 'cli.js'))).toBeNull();
    expect(piVersionOf(join(dir, 'missing.js'))).toBeNull();
    expect(piVersionOf(undefined)).toBeNull();
  });
});
