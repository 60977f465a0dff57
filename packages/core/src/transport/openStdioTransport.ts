import type { ChildProcess } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Readable } from 'node:stream';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { TransportStartupError } from '../errors';
import { minimalEnvironment } from '../servers/minimalEnvironment';
import { commandLineCanaries } from '../servers/redactCommandLine';
import { resolveConfiguredValues } from '../servers/resolveConfiguredValues';
import type { StdioServer } from '../servers/StdioServer';
import type { ProcessStartedPayload } from '../trace/payloads';
import { ChildProcessHandle } from './ChildProcessHandle';
import { recordUnreadableLine } from './recordUnreadableLine';
import { reportUnreadableLines } from './ReportingReadBuffer';
import type { OpenedTransport, OpenTransportOptions } from './openTransport';
import { StartedStdioTransport } from './StartedStdioTransport';
import { StdioConnectionEnd } from './StdioConnectionEnd';

const STARTUP_FAILED = 'stdio MCP server startup failed';

/** Why a spawn failed, in words that never include the command line. */
function spawnFailure(error: unknown, server: StdioServer): TransportStartupError {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const reason =
    code === 'ENOENT'
      ? 'the command was not found: check `command` and that it is on PATH'
      : code === 'EACCES'
        ? 'the command is not executable: check its permissions'
        : `the process could not be spawned${typeof code === 'string' ? ` (${code})` : ''}`;
  return new TransportStartupError(`${STARTUP_FAILED} for ${server.name}: ${reason}`, {
    server: server.name,
    executable: basename(server.command),
    ...(typeof code === 'string' && { errno: code }),
  });
}

/** Checks `cwd` at connect time: it must exist and be a directory. */
async function checkCwd(server: StdioServer): Promise<void> {
  if (server.cwd === undefined) return;
  const info = await stat(server.cwd).catch(() => undefined);
  if (info === undefined || !info.isDirectory()) {
    throw new TransportStartupError(
      `${STARTUP_FAILED} for ${server.name}: the working directory ${server.cwd} does not exist or is not a directory; ` +
        'give an existing absolute directory as `cwd`',
      { server: server.name, cwd: server.cwd },
    );
  }
}

/**
 * Spawns a fresh child for one connection through the SDK's `StdioClientTransport`, with stderr
 * piped into a bounded tail and `env` over a minimal inherited environment.
 */
export async function openStdioTransport(server: StdioServer, options: OpenTransportOptions): Promise<OpenedTransport> {
  const env = {
    ...minimalEnvironment(),
    ...resolveConfiguredValues(server.env, { redactor: options.redactor, what: 'env', serverName: server.name }),
  };
  // `--token=…`-style arguments are secrets too: the child may echo them on stderr or in results.
  for (const canary of commandLineCanaries(server.args)) options.redactor.addCanary(canary);
  await checkCwd(server);
  const sdkTransport = new StdioClientTransport({
    command: server.command,
    args: [...server.args],
    env,
    stderr: 'pipe',
    ...(server.cwd !== undefined && { cwd: server.cwd }),
  });
  const stderr = sdkTransport.stderr as Readable | null;
  reportUnreadableLines(sdkTransport, (line) =>
    recordUnreadableLine(options.recorder, server.name, options.connectionId, line),
  );
  // Swallow stream errors before start: a failed spawn must surface as one startup error.
  sdkTransport.onerror = () => undefined;
  try {
    await sdkTransport.start();
  } catch (error) {
    throw spawnFailure(error, server);
  }
  const child = (sdkTransport as unknown as { _process?: ChildProcess })._process;
  const pid = sdkTransport.pid ?? child?.pid;
  if (pid === undefined || pid === null) {
    await sdkTransport.close().catch(() => undefined);
    throw new TransportStartupError(`${STARTUP_FAILED} for ${server.name}: the process has no pid`, {
      server: server.name,
    });
  }
  const executable = basename(server.command);
  if (!options.recorder.finished) {
    const payload: ProcessStartedPayload = { executable, pid };
    options.recorder.record('process.started', {
      phase: 'startup',
      origin: 'normalized',
      direction: 'internal',
      server: server.name,
      connectionId: options.connectionId,
      payload,
    });
  }
  const handle = new ChildProcessHandle({
    pid,
    ...(child !== undefined && typeof child.once === 'function' && { child }),
    stderr,
    executable,
    redactor: options.redactor,
    recorder: options.recorder,
    server: server.name,
    connectionId: options.connectionId,
  });
  const end = new StdioConnectionEnd(handle);
  const transport = new StartedStdioTransport(sdkTransport, handle, end);
  return {
    transport,
    kind: 'stdio',
    process: { pid, stderr: () => handle.stderr(), exited: handle.exited },
    connectionEnd: (operation) => end.describe(operation),
    reap: async () => {
      await handle.reap();
      await sdkTransport.close().catch(() => undefined);
    },
  };
}
