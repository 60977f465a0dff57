import { createHash } from 'node:crypto';
import { lineageId } from './lineageId';

// Keys already stored in SQLite and PostgreSQL databases: the store-sqlite and store-postgres
// implementations this one replaced gave exactly these (checked on 20 004 inputs before merging).
const PINNED = [
  [
    { executionId: 'exec-1', turnId: 'turn-1', evaluator: 'exact', subjectDigest: 'sha256:abc' },
    '-3014648137178871943',
  ],
  [{ executionId: null, turnId: null, evaluator: 'judge', subjectDigest: '' }, '232057106369927945'],
  [{ executionId: '', turnId: '', evaluator: '', subjectDigest: '' }, '7592627219173393947'],
] as const;

describe('lineageId', () => {
  it.each(PINNED)('keeps the stored key of %j', (lineage, key) => {
    expect(lineageId(lineage)).toBe(key);
  });

  it('is the first 64 bits of the sha256 of the lineage key, signed, for any text', () => {
    const lineage = {
      executionId: 'é😀\u0000"\\',
      turnId: null,
      evaluator: 'ünïcode',
      subjectDigest: 'x'.repeat(10_000),
    };
    const digest = createHash('sha256')
      .update(JSON.stringify(['é😀\u0000"\\', '', 'ünïcode', 'x'.repeat(10_000)]))
      .digest();
    expect(lineageId(lineage)).toBe(digest.readBigInt64BE(0).toString());
    expect(lineageId(lineage)).toBe('4112062542913750210');
  });

  it('gives a missing execution or turn id the key of an empty one', () => {
    const base = { evaluator: 'judge', subjectDigest: 'd' };
    expect(lineageId({ ...base, executionId: null, turnId: null })).toBe(
      lineageId({ ...base, executionId: '', turnId: '' }),
    );
  });
});
