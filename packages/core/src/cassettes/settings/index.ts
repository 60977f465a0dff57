export { CASSETTES_ENV, UPDATE_CASSETTES_ENV, readCassetteEnv } from './cassetteEnv';
export type { CassetteEnvSettings } from './cassetteEnv';
export { parseCassetteMode } from './parseCassetteMode';
export { PROJECT_CASSETTES_OPTION, resolveCassetteSettings } from './resolveCassetteSettings';
export type { CassetteSettingSources } from './resolveCassetteSettings';
export { parseCassetteSuiteOptions } from './CassetteSuiteOptions';
export type { CassetteSuiteOptions } from './CassetteSuiteOptions';
// The modes themselves, for the CLI and the environment (the same bindings as the cassettes index).
export { CASSETTE_MODES } from '../CassetteMode';
export type { CassetteMode, CassetteSettings } from '../CassetteMode';
