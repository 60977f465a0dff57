import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { writeProxyConfig, createProxyConfig } from '../proxy/ProxyConfig';
import { makePrivateTempDir, TEMP_DIR_ENV, tempParent } from './privateTempDir';

describe('makePrivateTempDir', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'm3-tempdir-test-'));
  });
  afterEach(() => {
    delete process.env[TEMP_DIR_ENV];
    rmSync(root, { recursive: true, force: true });
  });

  test('makes a 0700 folder under M3_TEMP_DIR, creating that parent when missing', async () => {
    const parent = join(root, 'run', 'worker');
    const dir = await makePrivateTempDir('sf-m3-wire-', { [TEMP_DIR_ENV]: parent });
    expect(dirname(dir)).toBe(parent);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(parent).mode & 0o777).toBe(0o700);
  });

  test('falls back to the OS temp folder without (or with a relative) M3_TEMP_DIR', () => {
    expect(tempParent({})).toBe(tmpdir());
    expect(tempParent({ [TEMP_DIR_ENV]: 'relative/dir' })).toBe(tmpdir());
  });

  test("the capture proxy's one-shot config goes under M3_TEMP_DIR too", async () => {
    process.env[TEMP_DIR_ENV] = root;
    const file = await writeProxyConfig(
      createProxyConfig({ serverName: 's', command: 'node', capturePath: join(root, 'c.jsonl') }),
    );
    expect(dirname(dirname(file))).toBe(root);
    rmSync(dirname(file), { recursive: true, force: true });
    expect(existsSync(file)).toBe(false);
  });
});
