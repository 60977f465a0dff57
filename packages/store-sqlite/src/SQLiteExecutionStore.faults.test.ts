import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as sqlite3 from 'sqlite3';
import {
  ExecutionNotFound,
  ModelValidationError,
  RawEvidenceIntegrityError,
  StoreError,
  StoreSchemaError,
} from '@sf-m3/core';
import { executionRecord, finishedTrace } from '@sf-m3/test-utils/store';
import { newId } from '../../core/src/ids';
import { Redactor } from '../../core/src/redaction/Redactor';
import { TraceRecorder } from '../../core/src/trace/TraceRecorder';
import { SCHEMA_VERSION } from './schema';
import { SQLiteExecutionStore } from './SQLiteExecutionStore';

const root = mkdtempSync(join(tmpdir(), 'm3-sqlite-faults-'));
let n = 0;
const freshPath = (): string => join(root, `case-${++n}`, 'executions.sqlite');

/** Runs one statement on the file with raw sqlite3, bypassing the store. */
function rawSql(path: string, sql: string, params: unknown[] = []): Promise<void> {
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(path, (openError) => {
      if (openError) return reject(openError);
      db.run(sql, params, (error) => db.close(() => (error ? reject(error) : resolve())));
    });
  });
}

/** Holds the write lock of `path` from another connection for `ms`. */
async function lockFor(path: string, ms: number): Promise<{ released: Promise<void> }> {
  const db = new sqlite3.Database(path);
  await new Promise<void>((resolve, reject) => db.exec('BEGIN IMMEDIATE', (e) => (e ? reject(e) : resolve())));
  const released = new Promise<void>((resolve) =>
    setTimeout(() => db.exec('COMMIT', () => db.close(() => resolve())), ms),
  );
  return { released };
}

describe('SQLiteExecutionStore faults', () => {
  it('opens lazily: constructing touches nothing, first use creates parent folders', async () => {
    const path = join(root, 'lazy', 'a', 'b', 'executions.sqlite');
    const store = new SQLiteExecutionStore(path);
    expect(require('node:fs').existsSync(join(root, 'lazy'))).toBe(false);
    await store.registerSuite('catalog');
    expect(require('node:fs').existsSync(path)).toBe(true);
    await store.close();
  });

  it('refuses a path that is a directory, naming the fix', async () => {
    const dir = join(root, 'a-directory');
    mkdirSync(dir, { recursive: true });
    const store = new SQLiteExecutionStore(dir);
    await expect(store.listRuns()).rejects.toThrow(StoreError);
    await expect(store.listRuns()).rejects.toThrow(/is a directory: .*give a file path inside it/);
    await store.close();
  });

  it('refuses a file that is not a database and leaves it untouched', async () => {
    const path = freshPath();
    mkdirSync(join(path, '..'), { recursive: true });
    const text = 'these are my notes, not a database\n'.repeat(200);
    writeFileSync(path, text);
    const store = new SQLiteExecutionStore(path);
    await expect(store.open()).rejects.toThrow(/is not an sf-m3 results database/);
    await store.close();
    expect(require('node:fs').readFileSync(path, 'utf8')).toBe(text);
  });

  it('refuses a read-only location', async () => {
    let path: string;
    if (process.getuid?.() === 0) {
      path = '/sys/m3-results.sqlite'; // sysfs refuses new files even to root
    } else {
      const dir = join(root, 'read-only');
      mkdirSync(dir, { recursive: true });
      chmodSync(dir, 0o555);
      path = join(dir, 'executions.sqlite');
    }
    const store = new SQLiteExecutionStore(path);
    await expect(store.open()).rejects.toThrow(/read-only or not accessible|not writable/);
    await store.close();
  });

  it('refuses a database from a newer schema, naming both versions', async () => {
    const path = freshPath();
    const first = new SQLiteExecutionStore(path);
    await first.registerSuite('catalog');
    await first.close();
    await rawSql(path, `PRAGMA user_version = ${SCHEMA_VERSION + 5}`);
    const store = new SQLiteExecutionStore(path);
    const failure = store.open();
    await expect(failure).rejects.toThrow(StoreSchemaError);
    await expect(store.open()).rejects.toThrow(
      new RegExp(`schema version ${SCHEMA_VERSION + 5}, newer than version ${SCHEMA_VERSION}`),
    );
    await store.close();
  });

  it('rejects a non-file path with ModelValidationError', async () => {
    const store = new SQLiteExecutionStore(':memory:');
    await expect(store.open()).rejects.toThrow(ModelValidationError);
    await store.close();
  });

  it('detects tampered evidence by size and by digest', async () => {
    const path = freshPath();
    const store = new SQLiteExecutionStore(path);
    const record = executionRecord();
    await store.createExecution(record);
    const { finished } = finishedTrace(record.executionId);
    await store.finishExecution(finished);
    const ref = finished.evidence[0]!.reference;
    await expect(store.readRawEvidence(ref)).resolves.toMatchObject({ sizeBytes: ref.sizeBytes });
    const sameSize = Buffer.alloc(ref.sizeBytes, 0x41);
    await rawSql(path, 'UPDATE blobs SET bytes = ? WHERE sha256 = ?', [sameSize, ref.sha256]);
    await expect(store.readRawEvidence(ref)).rejects.toThrow(RawEvidenceIntegrityError);
    await expect(store.readRawEvidence(ref)).rejects.toThrow(/sha256 check/);
    await rawSql(path, 'UPDATE blobs SET bytes = ? WHERE sha256 = ?', [Buffer.from('short'), ref.sha256]);
    await expect(store.readRawEvidence(ref)).rejects.toThrow(/wrong size/);
    await store.close();
  });

  it('refuses evidence whose bytes do not match their reference, writing nothing', async () => {
    const store = new SQLiteExecutionStore(freshPath());
    const record = executionRecord();
    await store.createExecution(record);
    const { finished } = finishedTrace(record.executionId);
    const forged = {
      ...finished,
      evidence: [{ reference: finished.evidence[0]!.reference, bytes: Buffer.from('forged') }],
    };
    await expect(store.finishExecution(forged)).rejects.toThrow(RawEvidenceIntegrityError);
    expect((await store.getExecution(record.executionId)).outcome).toBeNull();
    await store.close();
  });

  it('rolls back a failed finish and keeps concurrent writes of the same batch', async () => {
    const store = new SQLiteExecutionStore(freshPath());
    const record = executionRecord();
    const { finished } = finishedTrace('exec-never-created');
    const results = await Promise.allSettled([
      store.createExecution(record),
      store.finishExecution(finished),
      store.registerSuite('kept'),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason).toBeInstanceOf(ExecutionNotFound);
    expect((await store.getExecution(record.executionId)).executionId).toBe(record.executionId);
    expect((await store.listSuites()).map((s) => s.name)).toEqual(['kept']);
    await store.close();
  });

  it('writes a long trace in batches and reads every event back in order', async () => {
    const store = new SQLiteExecutionStore(freshPath());
    const record = executionRecord();
    await store.createExecution(record);
    const recorder = new TraceRecorder({ executionId: record.executionId, redactor: new Redactor() });
    recorder.record('execution.created', {
      phase: 'preflight',
      payload: { traceId: newId('trace'), runtime: 'direct', runId: null, suiteName: null, caseId: null, servers: [] },
    });
    for (let i = 0; i < 150; i += 1) recorder.record('diagnostic', { payload: { message: `step ${i}` } });
    const trace = recorder.finish('completed');
    await store.finishExecution({
      executionId: record.executionId,
      outcome: 'completed',
      finishedAt: new Date().toISOString(),
      snapshot: {},
      trace,
      evidence: [],
    });
    const reopened = await store.getTrace(record.executionId);
    expect(reopened.events).toHaveLength(152);
    expect(reopened.toJSON()).toEqual(trace.toJSON());
    await store.close();
  });

  it('retries a batch while another process holds the write lock, then gives up with StoreError', async () => {
    const path = freshPath();
    const store = new SQLiteExecutionStore(path, {
      busyTimeoutMs: 20,
      retry: { attempts: 50, baseDelayMs: 5, maxDelayMs: 40 },
    });
    await store.registerSuite('first');
    const locker = await lockFor(path, 400);
    const started = Date.now();
    await store.registerSuite('second'); // waits out the lock through retries
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    await locker.released;
    expect((await store.listSuites()).map((s) => s.name)).toEqual(['first', 'second']);
    await store.close();

    const impatient = new SQLiteExecutionStore(path, {
      busyTimeoutMs: 10,
      retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 1 },
    });
    await impatient.open();
    const second = await lockFor(path, 500);
    await expect(impatient.registerSuite('third')).rejects.toThrow(/stayed locked by other writers through 2 attempts/);
    await second.released;
    await impatient.registerSuite('third');
    await impatient.close();
  });

  it('reopens saved data from a new store on the same file', async () => {
    const path = freshPath();
    const store = new SQLiteExecutionStore(path);
    const record = executionRecord({ runId: 'run-reopen' });
    await store.createExecution(record);
    const { trace, finished } = finishedTrace(record.executionId);
    await store.finishExecution(finished);
    await store.close();
    const reopened = new SQLiteExecutionStore(path);
    expect((await reopened.getTrace(record.executionId)).toJSON()).toEqual(trace.toJSON());
    const view = await reopened.getTraceView(record.executionId);
    expect(view.toJSON()).toEqual(trace.view().toJSON());
    expect(view.toolCalls.length).toBeGreaterThan(0);
    expect((await reopened.getExecution(record.executionId)).outcome).toBe('completed');
    await reopened.close();
  });
});
