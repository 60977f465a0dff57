// contract §25: schema fuzzing. Nothing here loads fast-check until a fuzz run starts.
export { FUZZ_SEED_ENV, fuzzFailureMessage } from './FuzzFailure';
export type { FuzzFailure, FuzzPhase, FuzzProblemKind } from './FuzzFailure';
export { DEFAULT_FUZZ_RUNS, DEFAULT_FUZZ_TIMEOUT_MS, fuzzSeed, fuzzTool, fuzzTools } from './fuzzTool';
export type { FuzzableTool, FuzzPhaseReport, FuzzToolOptions, FuzzToolReport } from './fuzzTool';
export { inputArbitraries } from './inputArbitraries';
export type { InputArbitraries } from './inputArbitraries';
export { LISTING_TIMEOUT_MS, listingRequest, listToolsSync } from './listToolsSync';
export type { CollectedToolListing } from './listToolsSync';
