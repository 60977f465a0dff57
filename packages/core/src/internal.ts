/**
 * @sf-m3/core/internal: what sf-m3's own packages (the Jest environment, the matchers, the CLI) share
 * and users must not touch. NO STABILITY PROMISE: any name here may change or go in any release,
 * without notice. It is not part of the public surface (e2e/publicSurface.test.ts keeps these names
 * out of `@sf-m3/core` and `sf-m3`). Names a store needs are in `@sf-m3/core/store` instead.
 */

// Public names that sf-m3's host side (the `m3` CLI, the Jest environment outside the test file's
// sandbox) reads here, so that it never loads the kit's entry: `@sf-m3/core` loads about 235 modules,
// this entry and `@sf-m3/core/store` together about 110, and every `m3` command and every Jest
// process would pay the difference (about 60 ms). The same values as `@sf-m3/core` exports
// (e2e/publicSurface.test.ts checks both).
export { ExecutionNotFound, M3Error, ModelValidationError } from './errors/M3Error';
export { JudgeErrorCode } from './judge/JudgeErrorCode';
export { environmentCanaries } from './redaction/credentialShape';
export { REDACTED, Redactor } from './redaction/Redactor';
export { commandLineCanaries } from './servers/redactCommandLine';
export { fisherExactTest } from './stats/fisherExactTest';
export { checkSurfaceThresholds } from './surface/coverage/checkSurfaceThresholds';
export { collectRunSurfaceCoverage, surfaceEvidenceOfRecords } from './surface/coverage/collectRunSurfaceCoverage';
export { mergeSurfaceEvidence } from './surface/coverage/mergeSurfaceEvidence';
export { validateSurfaceThresholdConfig } from './surface/coverage/validateSurfaceThresholdConfig';
export { EventKind } from './trace/Event';

// ids
export { newId } from './ids';

// redaction and secrets (contract §22)
export { CREDENTIAL_QUERY_PARAMS, isSensitiveName } from './redaction/Redactor';
export { credentialForms, isSecretEnvName } from './redaction/credentialShape';

// logging (contract §15)
export { createLogger, getRootLogger, resetLogger } from './logging/logger';

// server definitions and their trust rules (contract §2)
export { parseEndpointUrl } from './servers/endpointTrust';
export { PINNABLE_REVISIONS } from './servers/protocolSetting';
export { redactCommandLine } from './servers/redactCommandLine';

// LLM judges (contract §9)
export { JUDGE_MAX_REQUESTS_ENV } from './judge/budget/JudgeBudget';

// stores: where the history lives, closing abandoned runs, run shards (contract §10, §20)
export { abandonedReason, closeAbandonedRun, findAbandonedRuns } from './store/closeAbandonedRuns';
export {
  isPostgresUrl,
  openPostgresStore,
  POSTGRES_STORE_PACKAGE,
  resultsLocationSecrets,
  showResultsLocation,
} from './store/resultsLocation';
export { runProcessOf } from './store/runProcess';
export { allShardsFinished, runClosingShard } from './store/runShards';
export { MAX_SUITE_NAME_LENGTH } from './store/storeInputs';

// temporary files
export { TEMP_DIR_ENV } from './tempfiles/privateTempDir';

// the tool surface: coverage, fuzzing, lint (contract §25)
export { SURFACE_MEASURES } from './surface/coverage/SurfaceCoverage';
export { fuzzFailureMessage } from './surface/fuzz/FuzzFailure';
export { fuzzSeed } from './surface/fuzz/fuzzTool';
export { listToolsSync } from './surface/fuzz/listToolsSync';
export type { CollectedToolListing } from './surface/fuzz/listToolsSync';
export { TOOL_LISTING_MEMORY, toolListingMemory } from './surface/lint/ToolListingMemory';
export { toolListingOrigin } from './surface/lint/toolListingLink';
export { traceToolListings } from './surface/lint/traceToolListings';

// cassettes (contract §24)
export type { CassetteFileReport } from './cassettes/CassetteBook';
export { CASSETTE_MODES } from './cassettes/CassetteMode';
export type { CassetteSettings } from './cassettes/CassetteMode';
export { cassetteFileOf } from './cassettes/cassetteFile';
export { parseCassetteSuiteOptions } from './cassettes/settings/CassetteSuiteOptions';
export type { CassetteSuiteOptions } from './cassettes/settings/CassetteSuiteOptions';
export { CASSETTES_ENV, readCassetteEnv, UPDATE_CASSETTES_ENV } from './cassettes/settings/cassetteEnv';
export { resolveCassetteSettings } from './cassettes/settings/resolveCassetteSettings';

// the subject a matcher or an evaluation is about (one resolver for both; @sf-m3/matchers re-exports it)
export { isViewLike, resolveSubject, subjectIds, viewForTurn } from './trace/resolveSubject';
export type { SubjectResolution, UnresolvedReason, ViewLike } from './trace/resolveSubject';

// the native harnesses' executables and packages (one table for the drivers and `m3 doctor`)
export { NATIVE_HARNESS_DEFAULTS } from './agents/native/nativeHarnessDefaults';
export type { NativeHarnessDefaults } from './agents/native/nativeSelection';
