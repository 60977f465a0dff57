export type { CassetteBook, CassetteBookOptions, CassetteBookReport, CassetteFileReport } from './CassetteBook';
export {
  CASSETTE_SCHEMA_VERSION,
  type CassetteExchange,
  type CassetteFileContent,
  type CassetteRequest,
  type CassetteResponse,
  type CassetteTestEntry,
} from './CassetteFormat';
export { CASSETTE_MODES, type CassetteMode, type CassetteSettings, type CassetteUse } from './CassetteMode';
export type { CassetteChannel, CassetteChannelOptions, CassetteScope, CassetteTape } from './CassetteScope';
export { CASSETTE_REQUEST_HEADERS, CASSETTE_RESPONSE_HEADERS } from './cassetteHeaders';
export { cassetteFileOf } from './cassetteFile';
export { cassetteRequestKey } from './cassetteRequestKey';
export { CASSETTE_MISS_STATUS } from './channel/CassetteProxyChannel';
export { openCassetteBook } from './FileCassetteBook';
export { normalizeCassetteRequest, VOLATILE_BODY_FIELDS, type RawCassetteRequest } from './normalizeCassetteRequest';
