import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { type CassetteRequest, type CassetteScope, M3Error, openCassetteBook } from '@sf-m3/core';
import type { CassetteFileReport } from '../RunStateDir';
import { CassetteLifecycle, type CassetteLifecycleOptions } from './CassetteLifecycle';

// The real book (`openCassetteBook`) on a real file; the MCP-side tape stands in for a model client,
// so no server is needed to record and replay.
let folder: string;
let testFile: string;
let reports: CassetteFileReport[];

beforeEach(() => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'm3-cassette-lifecycle-'));
  testFile = path.join(folder, 'agents.test.ts');
  reports = [];
});
afterEach(() => fs.rmSync(folder, { recursive: true, force: true }));

const cassetteFile = () => path.join(folder, '__cassettes__', 'agents.test.ts.cassette.json');

function lifecycle(overrides: Partial<CassetteLifecycleOptions> = {}): CassetteLifecycle {
  return new CassetteLifecycle({
    testFile,
    testPath: 'tests/agents.test.ts',
    env: {},
    ci: false,
    project: undefined,
    openBook: (request) => openCassetteBook(request),
    report: (report) => reports.push(report),
    ...overrides,
  });
}

const request = (content: string): CassetteRequest => ({
  method: 'POST',
  path: '/v1/chat/completions',
  headers: {},
  body: { messages: [{ role: 'user', content }] },
});

/** One "model request" through a scope: replayed when recorded, else recorded with `answer`. */
function exchange(scope: unknown, content: string, answer = `answer to ${content}`): string {
  const tape = (scope as CassetteScope).tape('openai fake trial 1');
  const replayed = tape.take(request(content));
  if (replayed !== null) return String(replayed.body);
  if (tape.mode === 'replay') throw new Error(`no recording of ${content}`);
  tape.record({ request: request(content), response: { status: 200, headers: {}, body: answer } });
  return answer;
}

describe('CassetteLifecycle (contract §24)', () => {
  it('records in auto, then replays under Jest’s ci without writing', async () => {
    const recording = lifecycle();
    exchange(recording.scopeFor('agents adds', { name: 'agents' }), 'Add 2 and 3');
    exchange(recording.scopeFor('agents subtracts', null), 'Subtract 3 from 5');
    await recording.finish(true);
    expect(reports).toEqual([
      expect.objectContaining({ kind: 'cassette_file', testPath: 'tests/agents.test.ts', recorded: 2, written: true }),
    ]);
    const bytes = fs.readFileSync(cassetteFile(), 'utf8');

    const replaying = lifecycle({ ci: true });
    expect(exchange(replaying.scopeFor('agents adds', null), 'Add 2 and 3')).toBe('answer to Add 2 and 3');
    expect(exchange(replaying.scopeFor('agents subtracts', null), 'Subtract 3 from 5')).toBe(
      'answer to Subtract 3 from 5',
    );
    await replaying.finish(true);
    expect(reports[1]).toEqual({
      kind: 'cassette_file',
      testPath: 'tests/agents.test.ts',
      replayed: 2,
      recorded: 0,
      obsolete: 0,
      obsoleteTests: [],
      written: false,
      removed: false,
    });
    expect(fs.readFileSync(cassetteFile(), 'utf8')).toBe(bytes);
  });

  it('mode off: no scope, no book, no file, no report', async () => {
    const off = lifecycle({ env: { M3_CASSETTES: 'off' } });
    expect(off.scopeFor('agents adds', null)).toBeUndefined();
    expect(await off.finish(true)).toBeNull();
    expect(fs.existsSync(cassetteFile())).toBe(false);
    // A suite's own `off` under an auto file.
    const auto = lifecycle();
    expect(auto.scopeFor('live adds', { name: 'live', cassettes: { mode: 'off' } })).toBeUndefined();
    expect(reports).toEqual([]);
  });

  it('counts obsolete entries only when the whole file ran, names their tests, and --update-cassettes removes them', async () => {
    const first = lifecycle();
    exchange(first.scopeFor('agents adds', null), 'Add 2 and 3');
    exchange(first.scopeFor('agents old', null), 'Old question');
    await first.finish(true);

    const filtered = lifecycle();
    exchange(filtered.scopeFor('agents adds', null), 'Add 2 and 3');
    await filtered.finish(false);
    expect(reports[1]).toMatchObject({ obsolete: 0, obsoleteTests: [], written: false });

    const whole = lifecycle({ redact: (text) => text.replace('old', '[REDACTED]') });
    exchange(whole.scopeFor('agents adds', null), 'Add 2 and 3');
    await whole.finish(true);
    expect(reports[2]).toMatchObject({ obsolete: 1, obsoleteTests: ['agents [REDACTED]'], removed: false });
    expect(fs.readFileSync(cassetteFile(), 'utf8')).toContain('agents old');

    const update = lifecycle({ env: { M3_UPDATE_CASSETTES: '1' } });
    exchange(update.scopeFor('agents adds', null), 'Add 2 and 3', 'a new answer');
    await update.finish(true);
    expect(reports[3]).toMatchObject({ recorded: 1, obsolete: 1, obsoleteTests: ['agents old'], removed: true });
    const text = fs.readFileSync(cassetteFile(), 'utf8');
    expect(text).not.toContain('agents old');
    expect(text).toContain('a new answer');
  });

  it('reports the obsolete entries of a cassette no test of the file opened', async () => {
    const first = lifecycle();
    exchange(first.scopeFor('agents gone', null), 'Gone');
    await first.finish(true);
    const none = lifecycle();
    await none.finish(true);
    expect(reports[1]).toMatchObject({ obsolete: 1, obsoleteTests: ['agents gone'], written: false });
    expect(await lifecycle().finish(false)).toBeNull();
    expect(reports).toHaveLength(2);
  });

  it('gives a suite its own mode below the environment, and refuses two writing modes in one file', async () => {
    const first = lifecycle();
    exchange(first.scopeFor('agents adds', null), 'Add 2 and 3');
    await first.finish(true);

    const mixed = lifecycle();
    const strict = mixed.scopeFor('strict adds', { name: 'strict', cassettes: { mode: 'replay' } }) as CassetteScope;
    expect(strict.mode).toBe('replay');
    const loose = mixed.scopeFor('agents new', null) as CassetteScope;
    expect(loose.mode).toBe('auto');
    expect(() => mixed.scopeFor('again x', { name: 'again', cassettes: { mode: 'record' } })).toThrow(
      "tests/agents.test.ts: describe.m3('again') would record cassettes in mode record, but this file's cassette already records in mode auto",
    );
    exchange(loose, 'New question');
    await mixed.finish(true);
    // Two books: nothing counts obsolete; the auto book wrote its new test and kept the rest.
    expect(reports[1]).toMatchObject({ recorded: 1, obsolete: 0, written: true });
    expect(Object.keys(JSON.parse(fs.readFileSync(cassetteFile(), 'utf8')).tests)).toEqual([
      'agents adds',
      'agents new',
    ]);
    const forced = lifecycle({ env: { M3_CASSETTES: 'replay' } });
    expect((forced.scopeFor('s x', { name: 's', cassettes: { mode: 'record' } }) as CassetteScope).mode).toBe('replay');
  });

  it('passes servers: true to the scope', () => {
    const scope = lifecycle().scopeFor('s x', { name: 's', cassettes: { servers: true } }) as CassetteScope;
    expect(scope.servers).toBe(true);
    expect((lifecycle().scopeFor('s x', null) as CassetteScope).servers).toBe(false);
  });

  it('fails the file at its start when the environment or the project names no mode', () => {
    expect(() => lifecycle({ project: 'sometimes' })).toThrow(
      'testEnvironmentOptions.cassettes in the Jest config is "sometimes", which is not a cassette mode; use one of auto, record, replay, off',
    );
    expect(() => lifecycle({ env: { M3_CASSETTES: 'x' } })).toThrow(M3Error);
  });
});
