import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { checkHarnesses, type VersionProber } from './doctorHarnesses';
import { probeVersion, type ProbeDeadline } from './harnessVersionProbe';

let folder: string;
let bin: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'm3-doctor-harnesses-'));
  bin = join(folder, 'bin');
  mkdirSync(bin);
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

/** A fixture executable: a shell script in the fixture bin folder. */
function script(name: string, body: string): string {
  const path = join(bin, name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

/**
 * Resolves once a process is gone (or a zombie). It is not this process's child, so there is no
 * exit event to wait on: it polls, and the test's timeout bounds the wait, not a margin of its own.
 */
async function gone(pid: number): Promise<true> {
  const isGone = () => {
    try {
      return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.startsWith('Z') === true;
    } catch {
      return true;
    }
  };
  while (!isGone()) await new Promise((r) => setTimeout(r, 20));
  return true;
}

/**
 * A probe deadline that fires once `file` holds a whole line (the fixture wrote it), whatever the
 * machine's speed: the probe is then known to hang, not merely to be slow.
 */
function whenWritten(file: string): ProbeDeadline {
  return (fire) => {
    const poll = setInterval(() => {
      if (existsSync(file) && readFileSync(file, 'utf8').endsWith('\n')) {
        clearInterval(poll);
        fire();
      }
    }, 10);
    return () => clearInterval(poll);
  };
}

/** A deadline that never fires: the probe must end on its own (the test's timeout bounds it). */
const never: ProbeDeadline = () => () => undefined;

describe('probeVersion', () => {
  it('returns the first line --version prints', async () => {
    const exe = script('codex', 'echo; echo "codex-cli 0.171.0"; echo "more"');
    expect(await probeVersion(exe, { deadline: never })).toEqual({ ok: true, version: 'codex-cli 0.171.0' });
  });

  it('runs in a temp HOME it removes, with PATH led by node and no credentials from the environment', async () => {
    const seen = join(folder, 'seen.txt');
    const exe = script('pi', `echo "$HOME|\${OPENAI_API_KEY:-none}|$PATH" > ${seen}; echo "pi 0.73.1"`);
    process.env.OPENAI_API_KEY = 'sk-should-not-leak';
    try {
      expect(await probeVersion(exe, { path: `/usr/bin${delimiter}/bin`, deadline: never })).toEqual({
        ok: true,
        version: 'pi 0.73.1',
      });
    } finally {
      delete process.env.OPENAI_API_KEY;
    }
    const [home, key, path] = readFileSync(seen, 'utf8').trim().split('|');
    expect(home).toContain('m3-doctor-home-');
    expect(existsSync(home!)).toBe(false);
    expect(key).toBe('none');
    expect(path).toBe([...new Set([dirname(process.execPath), '/usr/bin', '/bin'])].join(delimiter));
  });

  it('names the exit code and the first stderr line of a failing probe', async () => {
    const exe = script('claude', 'echo "Error: cannot read config" >&2; exit 1');
    expect(await probeVersion(exe, { deadline: never })).toEqual({
      ok: false,
      problem: 'exited with code 1: Error: cannot read config',
    });
    expect(await probeVersion(script('quiet', 'exit 0'), { deadline: never })).toEqual({
      ok: false,
      problem: 'exited 0 but printed nothing',
    });
    expect(await probeVersion(join(bin, 'missing'), { deadline: never })).toMatchObject({
      ok: false,
      problem: /^could not start: /,
    });
  });

  it('stops a probe that hangs, killing its whole process group', async () => {
    const pidFile = join(folder, 'pid');
    const exe = script('opencode', `/bin/sleep 30 & echo $! > ${pidFile}; wait`);
    expect(await probeVersion(exe, { timeoutMs: 300, deadline: whenWritten(pidFile) })).toEqual({
      ok: false,
      problem: 'did not finish within 300 ms',
    });
    const pid = Number(readFileSync(pidFile, 'utf8'));
    expect(await gone(pid)).toBe(true);
  });
});

describe('the harness lines of m3 doctor', () => {
  const project = (text: string) => {
    mkdirSync(join(folder, 'tests'));
    writeFileSync(join(folder, 'tests', 'agent.m3.test.ts'), text);
  };
  const started = () => join(folder, 'started');
  // Only the fixture that hangs gets a deadline, and it fires once that fixture has started.
  const fast: VersionProber = (exe, path) =>
    probeVersion(exe, { path, timeoutMs: 500, deadline: exe.endsWith('opencode') ? whenWritten(started()) : never });

  it('shows the version of a named native CLI, and warns with the fix when its probe fails or hangs', async () => {
    project(
      `kit.agents([{ harness: 'codex', model: 'm' }, { harness: 'pi', model: 'm' }, { harness: 'opencode', model: 'm' }])`,
    );
    script('codex', 'echo "codex-cli 0.171.0"');
    script('pi', 'echo "broken install" >&2; exit 1');
    script('opencode', `echo started > ${started()}; /bin/sleep 30`);
    const checks = await checkHarnesses(folder, { PATH: bin }, fast);
    expect(checks).toEqual([
      {
        name: 'harness codex',
        status: 'ok',
        detail: `named in tests/agent.m3.test.ts; codex found at ${join(bin, 'codex')}: codex-cli 0.171.0`,
      },
      {
        name: 'harness pi',
        status: 'warn',
        detail: `named in tests/agent.m3.test.ts; pi found at ${join(bin, 'pi')}, but \`pi --version\` exited with code 1: broken install`,
        fix: `check that \`${join(bin, 'pi')} --version\` runs in a clean HOME; reinstall it with npm install -g @mariozechner/pi-coding-agent or point the selection's executable at a working pi`,
      },
      expect.objectContaining({
        name: 'harness opencode',
        status: 'warn',
        detail: expect.stringContaining('but `opencode --version` did not finish within 500 ms'),
      }),
    ]);
  });

  it('lists native CLIs on PATH that no test file names, with their versions', async () => {
    project(`kit.agents([{ harness: 'codex', model: 'm' }])`);
    script('codex', 'echo "codex-cli 0.171.0"');
    script('claude', 'echo "2.1.44 (Claude Code)"');
    script('pi', 'exit 3');
    const checks = await checkHarnesses(folder, { PATH: bin }, fast);
    expect(checks.map((c) => c.name)).toEqual(['harness codex', 'native CLIs']);
    expect(checks[1]).toEqual({
      name: 'native CLIs',
      status: 'ok',
      detail: `on PATH, not named by a test file: claude_code 2.1.44 (Claude Code) at ${join(bin, 'claude')}; pi (--version failed) at ${join(bin, 'pi')}`,
    });
    rmSync(join(folder, 'tests'), { recursive: true });
    expect((await checkHarnesses(folder, { PATH: '' }, fast)).map((c) => c.name)).toEqual(['harnesses']);
  });
});
