/**
 * The preset's transformer for `.ts` files: ts-jest, loaded when the first TypeScript file is
 * transformed. Jest loads every configured transformer when each process starts (the main
 * process and every worker), and ts-jest loads the TypeScript compiler, about a second of CPU per
 * process; a project whose tests are JavaScript never needs it. The preset names this module with
 * `{ [TS_JEST_PATH_OPTION]: <resolved ts-jest> }`; ts-jest itself sees the transformer config
 * without that key, exactly as when the preset named ts-jest directly.
 */

/** The transformer option that carries the path of the ts-jest the preset resolved. */
export const TS_JEST_PATH_OPTION = 'sfM3TsJestPath';

/** The options Jest hands a transformer's methods (only `transformerConfig` is read here). */
interface TransformOptions {
  readonly transformerConfig?: unknown;
}

/** The methods of a Jest transformer that ts-jest implements, and Jest calls. */
interface TsJestTransformer {
  process(sourceText: string, sourcePath: string, options: TransformOptions): unknown;
  processAsync(sourceText: string, sourcePath: string, options: TransformOptions): Promise<unknown>;
  getCacheKey(sourceText: string, sourcePath: string, options: TransformOptions): string;
  getCacheKeyAsync(sourceText: string, sourcePath: string, options: TransformOptions): Promise<string>;
}

interface TsJestModule {
  readonly default?: { createTransformer(config: unknown): TsJestTransformer };
  readonly createTransformer?: (config: unknown) => TsJestTransformer;
}

/** `config` without the preset's own option: what ts-jest would have been given. */
function withoutPathOption(config: Record<string, unknown>): Record<string, unknown> {
  const { [TS_JEST_PATH_OPTION]: _path, ...rest } = config;
  return rest;
}

/**
 * Jest's transformer factory: a transformer that creates ts-jest's, with the same config, on its
 * first call, then forwards every call to it (with the options ts-jest would have seen).
 */
export function createTransformer(config: Record<string, unknown> = {}): TsJestTransformer {
  const tsJestPath = config[TS_JEST_PATH_OPTION];
  if (typeof tsJestPath !== 'string') {
    throw new Error(
      `the sf-m3 preset's TypeScript transformer needs the ${TS_JEST_PATH_OPTION} option (the path of ts-jest): ` +
        "use preset 'sf-m3' rather than naming this file in transform",
    );
  }
  const tsJestConfig = withoutPathOption(config);
  let real: TsJestTransformer | undefined;
  const tsJest = (): TsJestTransformer => {
    if (real === undefined) {
      const loaded = require(tsJestPath) as TsJestModule;
      const factory = loaded.default ?? loaded;
      real = factory.createTransformer!(tsJestConfig);
    }
    return real;
  };
  const forwarded = (options: TransformOptions): TransformOptions => ({ ...options, transformerConfig: tsJestConfig });
  return {
    process: (sourceText, sourcePath, options) => tsJest().process(sourceText, sourcePath, forwarded(options)),
    processAsync: (sourceText, sourcePath, options) =>
      tsJest().processAsync(sourceText, sourcePath, forwarded(options)),
    getCacheKey: (sourceText, sourcePath, options) => tsJest().getCacheKey(sourceText, sourcePath, forwarded(options)),
    getCacheKeyAsync: (sourceText, sourcePath, options) =>
      tsJest().getCacheKeyAsync(sourceText, sourcePath, forwarded(options)),
  };
}

/** What Jest loads: its `default` export is the transformer factory (Jest reads `default` of an ES module). */
const lazyTsJest = { createTransformer };
export default lazyTsJest;
