import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, basename, join } from 'node:path';
import { ModelValidationError } from '../errors/M3Error';
import { buildProxyCommand, captureProxyScriptPath } from './buildProxyCommand';
import { createProxyConfig, DEFAULT_PROXY_BOUNDS, writeProxyConfig } from './ProxyConfig';

const base = { serverName: 'shipping', command: 'node', args: ['server.js'], capturePath: '/tmp/capture.jsonl' };

describe('createProxyConfig', () => {
  test('fills the defaults and normalizes the policy for this server', () => {
    const config = createProxyConfig({ ...base, tools: ['shipping:quote', 'other:x'] });
    expect(config).toEqual({
      version: 1,
      server: { name: 'shipping', command: 'node', args: ['server.js'], env: {}, inheritEnv: true },
      capturePath: '/tmp/capture.jsonl',
      canaries: [],
      bounds: DEFAULT_PROXY_BOUNDS,
      toolPolicy: { mode: 'allowlist', tools: ['quote'] },
      eofGraceMs: 5000,
    });
  });

  test('values of secret-looking env keys become canaries', () => {
    const config = createProxyConfig({
      ...base,
      env: { API_KEY: 'k-123456', REGION: 'eu-west' },
      canaries: ['abcd', 'ab'],
    });
    expect(config.canaries.sort()).toEqual(['abcd', 'k-123456']);
  });

  test('refuses what the proxy could not use', () => {
    expect(() => createProxyConfig({ ...base, serverName: 'a:b' })).toThrow(ModelValidationError);
    expect(() => createProxyConfig({ ...base, command: '' })).toThrow('needs a command');
    expect(() => createProxyConfig({ ...base, capturePath: '' })).toThrow('capturePath');
    expect(() => createProxyConfig({ ...base, bounds: { frameBytes: 0 } })).toThrow('frameBytes');
    expect(() => createProxyConfig({ ...base, eofGraceMs: -1 })).toThrow('eofGraceMs');
  });
});

describe('writeProxyConfig', () => {
  test('writes a 0600 file in a private directory', async () => {
    const config = createProxyConfig({ ...base, env: { TOKEN: 'secret-value' } });
    const path = await writeProxyConfig(config);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(path)).mode & 0o777).toBe(0o700);
    expect(basename(dirname(path))).toMatch(/^sf-m3-proxy-/);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual(config);
  });
});

describe('buildProxyCommand', () => {
  test('runs the shipped script with this Node and only the config path', () => {
    expect(buildProxyCommand('/tmp/x/config.json')).toEqual({
      command: process.execPath,
      args: [captureProxyScriptPath, '/tmp/x/config.json'],
    });
    expect(statSync(captureProxyScriptPath).isFile()).toBe(true);
  });

  test('the script folder needs only Node built-ins and its own files (it runs outside the kit)', () => {
    const folder = dirname(captureProxyScriptPath);
    const files = readdirSync(folder).filter((f) => f.endsWith('.js'));
    const required = files.flatMap((f) =>
      [...readFileSync(join(folder, f), 'utf8').matchAll(/require\((['"])([^'"]+)\1\)/g)].map((m) => m[2]),
    );
    expect(required.length).toBeGreaterThan(files.length);
    // The package ships the whole folder, not only the entry script.
    const manifest = JSON.parse(readFileSync(join(folder, '..', 'package.json'), 'utf8')) as { files: string[] };
    expect(manifest.files).toContain('proxy');
    for (const name of required) {
      if (name.startsWith('./')) expect(files).toContain(`${name.slice(2)}.js`);
      else expect(name).toMatch(/^node:/);
    }
  });
});
