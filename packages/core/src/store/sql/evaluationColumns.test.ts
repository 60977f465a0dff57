// The column list both SQL stores insert by (SQLite binds by position, PostgreSQL by name) and the
// values core gives them must name the same columns in the same order (contract §10).
import { storedEvaluation } from '../storeFixtures.testkit';
import { EVALUATION_LABEL_COLUMNS } from './labelColumns';
import { EVALUATION_COLUMNS, evaluationColumns } from './evaluationColumns';

describe('evaluationColumns', () => {
  test('gives every column of EVALUATION_COLUMNS, in that order, and nothing else', () => {
    const columns = evaluationColumns(storedEvaluation({ evaluator: 'e1', executionId: null }));
    expect(Object.keys(columns)).toEqual([...EVALUATION_COLUMNS]);
  });

  test('every fixed label of a latest row is one of its columns', () => {
    for (const column of Object.values(EVALUATION_LABEL_COLUMNS)) expect(EVALUATION_COLUMNS).toContain(column);
  });

  test('the creation time is made canonical in the column and in the stored result alike', () => {
    const stored = storedEvaluation({ evaluator: 'e1', executionId: null });
    const columns = evaluationColumns({ ...stored, result: { ...stored.result, createdAt: '2026-01-02T03:04:05Z' } });
    expect(columns.created_at).toBe('2026-01-02T03:04:05.000Z');
    expect(JSON.parse(columns.result_json).createdAt).toBe('2026-01-02T03:04:05.000Z');
  });
});
