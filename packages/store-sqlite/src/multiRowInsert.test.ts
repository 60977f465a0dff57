import { chunkSize, MAX_ROWS_PER_STATEMENT, MultiRowInsert } from './multiRowInsert';
import { SqliteConnection, type SqlValue } from './SqliteConnection';

describe('chunkSize', () => {
  it('takes the largest power of two within what remains and the statement cap', () => {
    expect([1, 2, 3, 7, 8, 255, 256, 257, 1000].map(chunkSize)).toEqual([1, 2, 2, 4, 8, 128, 256, 256, 256]);
    expect(chunkSize(10 * MAX_ROWS_PER_STATEMENT)).toBe(MAX_ROWS_PER_STATEMENT);
  });
});

describe('MultiRowInsert', () => {
  let db: SqliteConnection;
  beforeEach(async () => {
    db = await SqliteConnection.open(':memory:');
    await db.exec('CREATE TABLE t (n INTEGER PRIMARY KEY, label TEXT NOT NULL)');
  });
  afterEach(() => db.close());

  it.each([0, 1, 5, 256, 1000])('inserts every one of %i rows with its values', async (count) => {
    const insert = new MultiRowInsert('INSERT INTO t (n, label)', 2);
    const inserted = await insert.insert(db, count, (params, i) => params.push(i, `row ${i}`));
    expect(inserted).toBe(count);
    const rows = await db.all<{ n: number; label: string }>('SELECT n, label FROM t ORDER BY n');
    expect(rows).toEqual(Array.from({ length: count }, (_, i) => ({ n: i, label: `row ${i}` })));
  });

  it('counts the rows an OR IGNORE head skipped', async () => {
    await db.run("INSERT INTO t VALUES (3, 'already there')");
    const insert = new MultiRowInsert('INSERT OR IGNORE INTO t (n, label)', 2);
    expect(await insert.insert(db, 10, (params, i) => params.push(i, `row ${i}`))).toBe(9);
    expect(await db.get('SELECT label FROM t WHERE n = 3')).toEqual({ label: 'already there' });
  });

  it('rejects with the failing chunk once every chunk has run', async () => {
    await db.run("INSERT INTO t VALUES (300, 'taken')");
    const insert = new MultiRowInsert('INSERT INTO t (n, label)', 2);
    await expect(insert.insert(db, 400, (params, i) => params.push(i, `row ${i}`))).rejects.toMatchObject({
      code: 'SQLITE_CONSTRAINT',
    });
    // The chunks before and after the failing one ran (a transaction would roll them back).
    expect(await db.get('SELECT COUNT(*) AS n FROM t')).toEqual({ n: 1 + 256 + 16 });
  });

  it('refuses a fill that pushes the wrong number of values, before writing anything', async () => {
    const insert = new MultiRowInsert('INSERT INTO t (n, label)', 2);
    await expect(insert.insert(db, 3, (params, i) => (i === 2 ? params.push(i) : params.push(i, 'x')))).rejects.toThrow(
      'expected 2 values for row 2, got 1',
    );
    expect(await db.get('SELECT COUNT(*) AS n FROM t')).toEqual({ n: 0 });
  });

  it('spells NULL columns as literals per null shape, and binds them past the shape cap', async () => {
    await db.exec('CREATE TABLE u (n INTEGER PRIMARY KEY, a TEXT, b REAL, c TEXT, d TEXT)');
    const insert = new MultiRowInsert('INSERT INTO u (n, a, b, c, d)', 5);
    // 16 null shapes (every pattern of a, b, c, d), more than MAX_NULL_SHAPES.
    const value = (i: number, column: number): SqlValue => {
      if ((i >> column) % 2 === 1) return null;
      return column === 1 ? i / 4 : `v${i}.${column}`;
    };
    const count = 300;
    const expected = Array.from({ length: count }, (_, i) => ({
      n: i,
      a: value(i, 0),
      b: value(i, 1),
      c: value(i, 2),
      d: value(i, 3),
    }));
    expect(
      await insert.insert(db, count, (params, i) => params.push(i, value(i, 0), value(i, 1), value(i, 2), value(i, 3))),
    ).toBe(count);
    expect(await db.all('SELECT n, a, b, c, d FROM u ORDER BY n')).toEqual(expected);
    expect(insert.sql(0b00110, 2)).toBe(
      'INSERT INTO u (n, a, b, c, d) VALUES (?, NULL, NULL, ?, ?), (?, NULL, NULL, ?, ?)',
    );
  });
});
