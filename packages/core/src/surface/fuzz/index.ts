// contract §25: schema fuzzing. Nothing here loads fast-check until a fuzz run starts, and no
// declaration exported here names a fast-check type: fast-check's own declarations need
// node16/bundler resolution, and a user's tsc (module commonjs, no skipLibCheck) would read them.
export { FUZZ_SEED_ENV, fuzzFailureMessage } from './FuzzFailure';
export type { FuzzFailure, FuzzPhase, FuzzProblemKind } from './FuzzFailure';
export { DEFAULT_FUZZ_RUNS, DEFAULT_FUZZ_TIMEOUT_MS, fuzzSeed, fuzzTool, fuzzTools } from './fuzzTool';
export type { FuzzableTool, FuzzPhaseReport, FuzzToolOptions, FuzzToolReport } from './fuzzTool';
export { LISTING_TIMEOUT_MS, listingRequest, listToolsSync } from './listToolsSync';
export type { CollectedToolListing } from './listToolsSync';
