import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeExecutionStoreContract } from '@sf-m3/core/store';
import { SQLiteExecutionStore } from './SQLiteExecutionStore';

const root = mkdtempSync(join(tmpdir(), 'm3-sqlite-contract-'));
let n = 0;

describeExecutionStoreContract(
  'SQLiteExecutionStore',
  async () => new SQLiteExecutionStore(join(root, `nested/db-${++n}.sqlite`)),
);
