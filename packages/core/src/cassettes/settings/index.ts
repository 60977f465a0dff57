export { CASSETTES_ENV, UPDATE_CASSETTES_ENV, readCassetteEnv } from './cassetteEnv';
export type { CassetteEnvSettings } from './cassetteEnv';
export { parseCassetteMode } from './parseCassetteMode';
export { PROJECT_CASSETTES_OPTION, resolveCassetteSettings } from './resolveCassetteSettings';
export type { CassetteSettingSources } from './resolveCassetteSettings';
export { parseCassetteSuiteOptions } from './CassetteSuiteOptions';
export type { CassetteSuiteOptions } from './CassetteSuiteOptions';
