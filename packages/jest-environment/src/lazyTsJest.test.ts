import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import lazyTsJest, { TS_JEST_PATH_OPTION } from './lazyTsJest';

/**
 * A transformer module in ts-jest's shape (`default.createTransformer`) that records when it is
 * loaded and what each call received, so the forwarding can be read back.
 */
const RECORDING_TRANSFORMER = `
globalThis.recordingTransformerLoads = (globalThis.recordingTransformerLoads ?? 0) + 1;
const calls = (globalThis.recordingTransformerCalls = []);
exports.default = {
  createTransformer(config) {
    calls.push(['createTransformer', config]);
    const record = (method, result) => (source, path, options) => {
      calls.push([method, source, path, options.transformerConfig]);
      return result;
    };
    return {
      process: record('process', { code: 'processed' }),
      processAsync: record('processAsync', Promise.resolve({ code: 'processed async' })),
      getCacheKey: record('getCacheKey', 'key'),
      getCacheKeyAsync: record('getCacheKeyAsync', Promise.resolve('async key')),
    };
  },
};
`;

type Recorded = typeof globalThis & { recordingTransformerLoads?: number; recordingTransformerCalls?: unknown[] };

let folder: string;
let transformerPath: string;

beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'sf-m3-lazy-ts-jest-'));
  transformerPath = join(folder, 'recordingTransformer.js');
  writeFileSync(transformerPath, RECORDING_TRANSFORMER);
  delete (globalThis as Recorded).recordingTransformerLoads;
});

afterEach(() => {
  rmSync(folder, { recursive: true, force: true });
});

describe('lazyTsJest', () => {
  test('loads the transformer on the first call, not when Jest creates it', async () => {
    const transformer = lazyTsJest.createTransformer({ [TS_JEST_PATH_OPTION]: transformerPath, isolatedModules: true });
    expect((globalThis as Recorded).recordingTransformerLoads).toBeUndefined();

    const options = { transformerConfig: { [TS_JEST_PATH_OPTION]: transformerPath, isolatedModules: true } };
    expect(transformer.getCacheKey('let a = 1;', '/p/a.ts', options)).toBe('key');
    expect(transformer.process('let a = 1;', '/p/a.ts', options)).toEqual({ code: 'processed' });
    await expect(transformer.processAsync('let b = 2;', '/p/b.ts', options)).resolves.toEqual({
      code: 'processed async',
    });
    await expect(transformer.getCacheKeyAsync('let b = 2;', '/p/b.ts', options)).resolves.toBe('async key');

    expect((globalThis as Recorded).recordingTransformerLoads).toBe(1);
    // The transformer sees its config without the preset's own option, at creation and in each call.
    const config = { isolatedModules: true };
    expect((globalThis as Recorded).recordingTransformerCalls).toEqual([
      ['createTransformer', config],
      ['getCacheKey', 'let a = 1;', '/p/a.ts', config],
      ['process', 'let a = 1;', '/p/a.ts', config],
      ['processAsync', 'let b = 2;', '/p/b.ts', config],
      ['getCacheKeyAsync', 'let b = 2;', '/p/b.ts', config],
    ]);
  });

  test('a transform entry without the ts-jest path says to use the preset', () => {
    expect(() => lazyTsJest.createTransformer({})).toThrow(
      `the sf-m3 preset's TypeScript transformer needs the ${TS_JEST_PATH_OPTION} option (the path of ts-jest): use preset 'sf-m3' rather than naming this file in transform`,
    );
  });
});
