import type { CassetteMode, CassetteUse } from '../../cassettes/CassetteMode';
import type { CassetteChannel, CassetteChannelOptions, CassetteScope } from '../../cassettes/CassetteScope';

/** The loopback origin the double's channels claim to listen on (nothing listens there). */
export const DOUBLE_PROXY_ORIGIN = 'http://127.0.0.1:4999';

/** What a test of the launch wiring reads back from the double. */
export interface CassetteScopeDouble {
  readonly scope: CassetteScope;
  /** Every `openChannel` call's options, in order. */
  readonly opened: CassetteChannelOptions[];
  /** How many channels were closed. */
  readonly closed: () => number;
}

/**
 * A stand-in `CassetteScope` for unit tests of the wiring ONLY (which URL and key a client is
 * launched with, which channel is opened): its channels proxy nothing; `baseUrl` is the upstream's
 * path under `DOUBLE_PROXY_ORIGIN`. Record and replay are tested against the real book.
 */
export function cassetteScopeDouble(
  mode: CassetteMode,
  answers: { readonly use?: CassetteUse | null; readonly miss?: Error | null } = {},
): CassetteScopeDouble {
  const opened: CassetteChannelOptions[] = [];
  let closed = 0;
  const scope: CassetteScope = {
    mode,
    testName: 'wiring test',
    testPath: 'wiring.test.ts',
    servers: false,
    openChannel: (options) => {
      opened.push(options);
      const path = new URL(options.upstream).pathname.replace(/\/+$/, '');
      const channel: CassetteChannel = {
        baseUrl: `${DOUBLE_PROXY_ORIGIN}${path}`,
        fetch: () => Promise.reject(new Error('the cassette scope double proxies nothing')),
        use: () => answers.use ?? null,
        counts: () => ({ replayed: 0, recorded: 0 }),
        miss: () => answers.miss ?? null,
        close: () => {
          closed += 1;
          return Promise.resolve();
        },
      };
      return Promise.resolve(channel);
    },
    tape: () => {
      throw new Error('the cassette scope double has no tapes');
    },
  };
  return { scope, opened, closed: () => closed };
}
