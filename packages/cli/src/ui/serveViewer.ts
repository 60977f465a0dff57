// One viewer session, as `m3 ui` and `m3 test --ui` run it: open the results database read-only,
// start the server, print the URL, open the browser when asked, and serve until SIGINT/SIGTERM.
import { cliRedactor, type CliIO } from '../CliIO';
import { displayPath } from '../displayPath';
import { UsageError } from '../options/UsageError';
import { noticeTo, openResultsStore } from '../store/openResultsStore';
import { ViewerApi } from './api/ViewerApi';
import { openBrowser } from './server/openBrowser';
import { startViewer, type RunningViewer } from './server/startViewer';

/** What a viewer session needs. */
export interface ViewerSessionOptions {
  /** Absolute path of the results database. */
  resultsDb: string;
  /** 0 picks a free port. */
  port: number;
  /** The run the printed URL opens on. */
  runId?: string;
  /** Open the browser (the caller decides: a terminal and no --no-open). */
  open: boolean;
  /** Print the URL on stderr (keeps `m3 test --ui --json` stdout one JSON document). */
  urlToStderr?: boolean;
  /** Resolves when the session should stop; defaults to the first SIGINT or SIGTERM. */
  stopped?: Promise<void>;
}

/** Resolves on the first SIGINT or SIGTERM (and removes its listeners). */
export function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

/** Runs a viewer session until it is stopped. A taken port is a usage error naming --port. */
export async function serveViewer(options: ViewerSessionOptions, io: CliIO): Promise<void> {
  const redactor = cliRedactor(io.env);
  const store = openResultsStore(options.resultsDb, { mustExist: true, onNotice: noticeTo(io, redactor) });
  const api = new ViewerApi(store, { redactor, resultsDb: displayPath(io.cwd, options.resultsDb), cwd: io.cwd });
  const stopped = options.stopped ?? untilSignal();
  let viewer: RunningViewer;
  try {
    viewer = await startViewer(api, {
      port: options.port,
      runId: options.runId,
      onError: (error) =>
        io.stderr(`m3 ui: ${redactor.redactText(error instanceof Error ? error.message : String(error))}\n`),
    });
  } catch (error) {
    await store.close();
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new UsageError('--port', `port ${options.port} is in use; pick another or omit --port for a free one`);
    }
    throw error;
  }
  const print = options.urlToStderr === true ? io.stderr : io.stdout;
  print(`m3 ui: serving ${displayPath(io.cwd, options.resultsDb)} read-only at ${viewer.url}\n`);
  print('m3 ui: press Ctrl-C to stop\n');
  if (options.open)
    openBrowser(viewer.url, (reason) => io.stderr(`m3 ui: could not open a browser (${reason}); open the URL above\n`));
  try {
    await stopped;
  } finally {
    await viewer.close();
    await store.close();
  }
}
