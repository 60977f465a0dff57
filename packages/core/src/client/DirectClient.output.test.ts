// What the kit prints: nothing but pino log lines on stderr (only when M3_LOG_LEVEL is set), never
// a child's stderr, and never a secret. The kit runs in a separate Node process so the test sees
// that process's real stdout and stderr (fd 1 and 2), not a patched stream.
import { spawn } from 'node:child_process';
import { join } from 'node:path';

const SCRIPT = join(__dirname, '__fixtures__', 'quiet-kit-run.js');
const SECRET = 'qa-canary-secret-4d3c2b1a';

interface RunOutput {
  stderr: { state: string; value: { preview: string; redacted: boolean; truncated: boolean } };
  trace: unknown;
  errorMessage: string;
  errorClass: string;
  crashed?: string;
}

/** Runs the script with `extraEnv`; resolves its exit code, parsed stdout and raw stderr. */
function runQuietKit(extraEnv: Record<string, string>): Promise<{ code: number | null; out: RunOutput; err: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, M3_QA_SECRET: SECRET, ...extraEnv };
  if (extraEnv.M3_LOG_LEVEL === undefined) delete env.M3_LOG_LEVEL;
  const child = spawn(process.execPath, [SCRIPT], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return new Promise((resolve) => {
    child.once('close', (code) => resolve({ code, out: JSON.parse(stdout) as RunOutput, err: stderr }));
  });
}

type Run = Awaited<ReturnType<typeof runQuietKit>>;
let silent: Run;
let debug: Run;
let warn: Run;
beforeAll(async () => {
  [silent, debug, warn] = await Promise.all([
    runQuietKit({}),
    runQuietKit({ M3_LOG_LEVEL: 'debug' }),
    runQuietKit({ M3_LOG_LEVEL: 'warn' }),
  ]);
}, 90_000);

describe('kit output (separate process)', () => {
  test('without M3_LOG_LEVEL nothing is printed: the child stderr is kept, redacted, in the trace only', () => {
    const { code, out, err } = silent;
    expect(out.crashed).toBeUndefined();
    expect(code).toBe(0);
    expect(err).toBe('');
    expect(out.stderr).toMatchObject({
      state: 'observed',
      value: { preview: 'starting with token [REDACTED]\n', redacted: true, truncated: false },
    });
    expect(JSON.stringify(out)).not.toContain(SECRET);
    expect(out.errorClass).toBe('OperationTimeout');
    expect(out.errorMessage).toMatch(/^tools\/call timed out after 50 ms/);
  });

  test('with M3_LOG_LEVEL=debug only redacted pino JSON lines reach stderr', () => {
    const { code, out, err } = debug;
    expect(out.crashed).toBeUndefined();
    expect(code).toBe(0);
    expect(err).not.toContain(SECRET);
    expect(err).not.toContain('starting with token');
    const lines = err
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    for (const line of lines) expect(line).toMatchObject({ name: 'sf-m3' });
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          level: 20,
          component: 'direct-client',
          msg: 'MCP client error',
          errorType: 'SyntaxError',
        }),
        expect.objectContaining({ level: 40, msg: 'leaking [REDACTED]', detail: 'token=[REDACTED]' }),
      ]),
    );
  });

  test('with M3_LOG_LEVEL=warn debug lines are dropped', () => {
    const { err } = warn;
    const messages = err
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { msg: string }).msg);
    expect(messages).toEqual(['leaking [REDACTED]']);
  });
});
