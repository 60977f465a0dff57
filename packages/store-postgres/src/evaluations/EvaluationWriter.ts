import { StoreError } from '@sf-m3/core/store';
import type { Pool, PoolClient } from 'pg';
import { transaction } from '../connection/transaction';
import type { EvaluationRow } from './evaluationRow';

/** Rows per transaction: big enough to amortise round trips, small enough to bound a statement. */
const MAX_BATCH = 2000;

interface Pending {
  readonly row: EvaluationRow;
  resolve(): void;
  reject(error: unknown): void;
}

interface LineageState {
  latestEvaluationId: string;
  latestCreatedAt: string;
  required: boolean;
}

const COLUMNS = `evaluation_id text, evaluator text, lineage_id bigint, subject_digest text, execution_id text,
  turn_id text, status text, score float8, required boolean, created_at text, run_id text, suite_name text,
  case_id text, server text, tool text, transport text, harness text, model text, trial text, judge_model text,
  rubric_id text, matrix_id text, metadata jsonb, result_json text, is_latest boolean`;

const NAMES = COLUMNS.split(',').map((column) => column.trim().split(/\s+/)[0]!);

const later = (a: { createdAt: string; id: string }, b: { createdAt: string; id: string }): boolean =>
  a.createdAt > b.createdAt || (a.createdAt === b.createdAt && a.id > b.id);

/**
 * Appends evaluation rows in batches: saves issued while a batch is being written are written
 * together in the next transaction. A transaction takes the advisory lock of every lineage it
 * touches (ascending, so two writers never deadlock), reads those lineages' latest rows, and then
 * inserts all rows with `is_latest` decided, steps the superseded latest rows down and moves the
 * lineages on — so N processes writing one lineage at once keep exactly one latest row, and no row
 * is lost or written twice.
 */
export class EvaluationWriter {
  private pending: Pending[] = [];
  private running: Promise<void> | null = null;

  constructor(private readonly pool: () => Promise<Pool>) {}

  /** Queues one row; resolves once its transaction committed. */
  save(row: EvaluationRow): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ row, resolve, reject });
      this.running ??= this.drain();
    });
  }

  /** Resolves when every queued row is written (or failed). */
  async idle(): Promise<void> {
    while (this.running !== null) await this.running;
  }

  private async drain(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve)); // let concurrent saves join the batch
    try {
      while (this.pending.length > 0) {
        const batch = this.pending.splice(0, MAX_BATCH);
        try {
          const rejected = await transaction(await this.pool(), (client) => writeBatch(client, batch));
          for (const item of batch) {
            const why = rejected.get(item);
            if (why === undefined) item.resolve();
            else item.reject(why);
          }
        } catch (error) {
          for (const item of batch) item.reject(error);
        }
      }
    } finally {
      this.running = null;
    }
  }
}

function duplicate(id: string): StoreError {
  return new StoreError(`evaluation could not be saved: ${id} already exists or is invalid (rows are append-only)`, {
    evaluationId: id,
  });
}

async function writeBatch(client: PoolClient, batch: readonly Pending[]): Promise<Map<Pending, StoreError>> {
  const rejected = new Map<Pending, StoreError>();
  const lineages = [...new Set(batch.map((item) => item.row.lineage_id))].sort((a, b) =>
    BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0,
  );
  await client.query('SELECT pg_advisory_xact_lock(id) FROM (SELECT unnest($1::bigint[]) AS id ORDER BY 1) ordered', [
    lineages,
  ]);
  const ids = batch.map((item) => item.row.evaluation_id);
  const existing = await client.query<{ evaluation_id: string }>(
    'SELECT evaluation_id FROM evaluations WHERE evaluation_id = ANY($1::text[])',
    [ids],
  );
  const taken = new Set(existing.rows.map((r) => r.evaluation_id));
  const states = new Map<string, LineageState>();
  const known = await client.query<{
    lineage_id: string;
    latest_evaluation_id: string;
    latest_created_at: string;
    required: boolean;
  }>(
    'SELECT lineage_id::text, latest_evaluation_id, latest_created_at, required FROM evaluation_lineages WHERE lineage_id = ANY($1::bigint[])',
    [lineages],
  );
  for (const r of known.rows) {
    states.set(r.lineage_id, {
      latestEvaluationId: r.latest_evaluation_id,
      latestCreatedAt: r.latest_created_at,
      required: r.required,
    });
  }
  const previousLatest = new Map([...states].map(([id, s]) => [id, s.latestEvaluationId]));
  const rowsById = new Map<string, EvaluationRow>();
  for (const item of batch) {
    const row = item.row;
    if (taken.has(row.evaluation_id)) {
      rejected.set(item, duplicate(row.evaluation_id));
      continue;
    }
    taken.add(row.evaluation_id);
    rowsById.set(row.evaluation_id, row);
    const state = states.get(row.lineage_id);
    const candidate = { createdAt: row.created_at, id: row.evaluation_id };
    if (state === undefined) {
      states.set(row.lineage_id, {
        latestEvaluationId: row.evaluation_id,
        latestCreatedAt: row.created_at,
        required: row.required,
      });
    } else {
      state.required ||= row.required;
      if (later(candidate, { createdAt: state.latestCreatedAt, id: state.latestEvaluationId })) {
        state.latestEvaluationId = row.evaluation_id;
        state.latestCreatedAt = row.created_at;
      }
    }
  }
  if (rowsById.size === 0) return rejected;
  for (const row of rowsById.values())
    row.is_latest = states.get(row.lineage_id)!.latestEvaluationId === row.evaluation_id;
  await client.query(
    `INSERT INTO evaluations (${NAMES.join(', ')}, execution_created_at)
     SELECT ${NAMES.map((n) => `r.${n}`).join(', ')}, COALESCE(x.created_at, r.created_at)
       FROM json_to_recordset($1::json) AS r(${COLUMNS})
       LEFT JOIN executions x ON x.execution_id = r.execution_id`,
    [JSON.stringify([...rowsById.values()])],
  );
  const demoted = [...previousLatest].filter(([id, latest]) => states.get(id)!.latestEvaluationId !== latest);
  if (demoted.length > 0) {
    await client.query('UPDATE evaluations SET is_latest = FALSE WHERE evaluation_id = ANY($1::text[])', [
      demoted.map(([, latest]) => latest),
    ]);
  }
  const touched = [...new Set([...rowsById.values()].map((row) => row.lineage_id))].map((id) => {
    const s = states.get(id)!;
    return {
      lineage_id: id,
      latest_evaluation_id: s.latestEvaluationId,
      latest_created_at: s.latestCreatedAt,
      required: s.required,
    };
  });
  await client.query(
    `INSERT INTO evaluation_lineages (lineage_id, latest_evaluation_id, latest_created_at, required)
     SELECT lineage_id, latest_evaluation_id, latest_created_at, required
       FROM json_to_recordset($1::json) AS l(lineage_id bigint, latest_evaluation_id text, latest_created_at text, required boolean)
     ON CONFLICT (lineage_id) DO UPDATE SET latest_evaluation_id = excluded.latest_evaluation_id,
       latest_created_at = excluded.latest_created_at, required = excluded.required`,
    [JSON.stringify(touched)],
  );
  return rejected;
}
