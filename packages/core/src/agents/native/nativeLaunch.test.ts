import { chmod, stat, writeFile } from 'node:fs/promises';
import { delimiter, dirname, join } from 'node:path';
import { TransportStartupError } from '../../errors';
import { Redactor } from '../../redaction/Redactor';
import { secretFromEnv } from '../../redaction/SecretRef';
import { makePrivateTempDir } from '../../tempfiles/privateTempDir';
import { removeLaunchRoot } from '../process/launchPlan';
import { prepareNativeLaunch } from './nativeLaunch';
import { resolveNativeSelection, type NativeHarnessDefaults } from './nativeSelection';

const DEFAULTS: NativeHarnessDefaults = {
  kind: 'codex',
  executable: 'm3-no-such-codex-cli',
  npmPackage: '@openai/codex',
  apiKeyEnv: 'M3_NATIVE_LAUNCH_TEST_KEY',
};

async function fakeCli(): Promise<string> {
  const dir = await makePrivateTempDir('m3-native-launch-test-');
  const path = join(dir, 'fake-cli');
  await writeFile(path, '#!/bin/sh\nexit 0\n');
  await chmod(path, 0o700);
  return path;
}

afterEach(() => {
  delete process.env.M3_NATIVE_LAUNCH_TEST_KEY;
  delete process.env.M3_NATIVE_LAUNCH_TEST_SECRET;
});

describe('prepareNativeLaunch', () => {
  it('fails with TransportStartupError naming the npm package when the CLI is not on PATH', async () => {
    const selection = resolveNativeSelection({ harness: 'codex', models: ['m'] }, DEFAULTS);
    const attempt = prepareNativeLaunch(selection, DEFAULTS, () => ({ args: [], env: {} }), new Redactor());
    await expect(attempt).rejects.toThrow(TransportStartupError);
    await expect(attempt).rejects.toThrow(
      "the codex harness found no executable on PATH (m3-no-such-codex-cli): install it with npm install -g @openai/codex, or give the selection executable: '/path/to/m3-no-such-codex-cli'",
    );
  });

  it('names the given path when the selection executable is missing', async () => {
    const selection = resolveNativeSelection(
      { harness: 'codex', models: ['m'], executable: '/nowhere/codex' },
      DEFAULTS,
    );
    await expect(
      prepareNativeLaunch(selection, DEFAULTS, () => ({ args: [], env: {} }), new Redactor()),
    ).rejects.toThrow('the codex harness found no executable at /nowhere/codex');
  });

  it('builds the allowlisted env: the harness switches, then the selection env; the key becomes a canary', async () => {
    process.env.M3_NATIVE_LAUNCH_TEST_KEY = 'sk-native-launch-key-93jd';
    process.env.M3_NATIVE_LAUNCH_TEST_SECRET = 'secret-value-4hd8';
    const executable = await fakeCli();
    const selection = resolveNativeSelection(
      {
        harness: 'codex',
        models: ['m'],
        executable,
        args: ['--user-flag'],
        env: { SWITCH: 'from-user', EXTRA: secretFromEnv('M3_NATIVE_LAUNCH_TEST_SECRET') },
      },
      DEFAULTS,
    );
    const redactor = new Redactor();
    const seen: string[] = [];
    const { plan, apiKey } = await prepareNativeLaunch(
      selection,
      DEFAULTS,
      (dirs, key) => {
        seen.push(key ?? 'none');
        return {
          args: ['app-server', '--config', join(dirs.configDir, 'config.toml')],
          env: { SWITCH: 'ours', OWN: '1' },
        };
      },
      redactor,
    );
    try {
      expect(apiKey).toBe('sk-native-launch-key-93jd');
      expect(seen).toEqual(['sk-native-launch-key-93jd']);
      expect(plan.args).toEqual(['app-server', '--config', join(plan.configDir, 'config.toml'), '--user-flag']);
      expect(plan.env).toMatchObject({ SWITCH: 'from-user', OWN: '1', EXTRA: 'secret-value-4hd8', HOME: plan.home });
      expect(plan.env.M3_NATIVE_LAUNCH_TEST_KEY).toBeUndefined();
      expect(plan.env.PATH.split(delimiter).slice(0, 2)).toEqual([dirname(executable), dirname(process.execPath)]);
      expect((await stat(plan.configDir)).mode & 0o777).toBe(0o700);
      expect(redactor.redactText('k=sk-native-launch-key-93jd s=secret-value-4hd8')).toBe('k=[REDACTED] s=[REDACTED]');
    } finally {
      await removeLaunchRoot(plan);
      await removeLaunchRoot({ root: dirname(executable) });
    }
  });

  it('removes the temp root when the harness extras throw', async () => {
    const executable = await fakeCli();
    const selection = resolveNativeSelection({ harness: 'codex', models: ['m'], executable }, DEFAULTS);
    let root = '';
    await expect(
      prepareNativeLaunch(
        selection,
        DEFAULTS,
        (dirs) => {
          root = dirs.root;
          throw new Error('config could not be written');
        },
        new Redactor(),
      ),
    ).rejects.toThrow('config could not be written');
    await expect(stat(root)).rejects.toThrow('ENOENT');
    await removeLaunchRoot({ root: dirname(executable) });
  });
});
