// `<exe> --version` for `m3 doctor`: run in its own process group with a throwaway HOME (removed
// afterwards) and a minimal environment — PATH with this Node's folder first, the temp HOME and XDG
// folders, no credentials — bounded in time and output, the whole group killed on timeout.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';

/** What `--version` said: its first line, or why there is none. */
export type VersionProbe =
  { readonly ok: true; readonly version: string } | { readonly ok: false; readonly problem: string };

/** Default time a probe may take. */
export const VERSION_PROBE_TIMEOUT_MS = 3000;
const MAX_OUTPUT_BYTES = 64 * 1024;
const MAX_LINE = 200;

/** The environment a probe runs with: nothing from the caller's environment but its PATH. */
export function probeEnv(home: string, path: string | undefined): NodeJS.ProcessEnv {
  const dirs = [dirname(process.execPath), ...(path ?? '').split(delimiter)].filter((d) => d !== '');
  return {
    PATH: [...new Set(dirs)].join(delimiter),
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    XDG_CACHE_HOME: join(home, '.cache'),
    NO_COLOR: '1',
    // Claude Code: no update check, no telemetry for a version probe.
    DISABLE_AUTOUPDATER: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  };
}

const firstLine = (text: string): string | undefined => {
  const line = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .find((l) => l.length > 0);
  return line === undefined ? undefined : line.length > MAX_LINE ? `${line.slice(0, MAX_LINE)}…` : line;
};

/**
 * When a probe's time is up: calls `fire` once it is, and returns what cancels it. The default waits
 * `timeoutMs`; a test passes one that fires on an event, so no outcome depends on the machine's speed.
 */
export type ProbeDeadline = (fire: () => void, timeoutMs: number) => () => void;

const afterTimeout: ProbeDeadline = (fire, timeoutMs) => {
  const timer = setTimeout(fire, timeoutMs);
  return () => clearTimeout(timer);
};

/** Runs `<executable> --version` and returns its first output line, or the problem. Never throws. */
export async function probeVersion(
  executable: string,
  options: { readonly path?: string; readonly timeoutMs?: number; readonly deadline?: ProbeDeadline } = {},
): Promise<VersionProbe> {
  const timeoutMs = options.timeoutMs ?? VERSION_PROBE_TIMEOUT_MS;
  const deadline = options.deadline ?? afterTimeout;
  const home = mkdtempSync(join(tmpdir(), 'm3-doctor-home-'));
  try {
    return await new Promise<VersionProbe>((resolve) => {
      const out = { stdout: '', stderr: '' };
      let settled = false;
      let cancelDeadline = (): void => undefined;
      const finish = (probe: VersionProbe) => {
        if (settled) return;
        settled = true;
        cancelDeadline();
        killGroup(child.pid);
        resolve(probe);
      };
      const child = spawn(executable, ['--version'], {
        cwd: home,
        env: probeEnv(home, options.path),
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      });
      const collect = (key: 'stdout' | 'stderr') => (chunk: Buffer) => {
        if (out[key].length < MAX_OUTPUT_BYTES) out[key] += chunk.toString('utf8');
      };
      child.stdout.on('data', collect('stdout'));
      child.stderr.on('data', collect('stderr'));
      cancelDeadline = deadline(
        () => finish({ ok: false, problem: `did not finish within ${formatSeconds(timeoutMs)}` }),
        timeoutMs,
      );
      child.on('error', (error) => finish({ ok: false, problem: `could not start: ${error.message}` }));
      child.on('close', (code, signal) => {
        const said = firstLine(out.stdout) ?? firstLine(out.stderr);
        if (code === 0 && said !== undefined) return finish({ ok: true, version: said });
        if (code === 0) return finish({ ok: false, problem: 'exited 0 but printed nothing' });
        const how = signal !== null ? `was killed by ${signal}` : `exited with code ${code}`;
        const detail = firstLine(out.stderr) ?? firstLine(out.stdout);
        finish({ ok: false, problem: detail === undefined ? how : `${how}: ${detail}` });
      });
    });
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // The group is gone already.
  }
}

const formatSeconds = (ms: number): string => (ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`);
