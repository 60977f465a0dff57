import { StoreError } from '@sf-m3/core/store';
import { chmodSync, copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { isWritable } from './readOnlyConnection';

/** A private copy of a results database and its `-wal`, in a folder only this user can enter. */
export interface PrivateReadCopy {
  /** The copied database, to open instead of the original. */
  readonly path: string;
  /** Removes the copy and its folder; idempotent (also run when the process exits). */
  remove(): void;
}

/**
 * Whether SQLite cannot read `path` in place: a WAL database whose `-wal` holds data, with no
 * `-shm` beside it, in a folder this process cannot write (a copied CI artifact, a read-only
 * mount). SQLite must create the `-shm` to read through the `-wal`, and opening it immutable
 * would silently drop what the `-wal` still holds. With the `-shm` present, with no `-wal`, or
 * in a writable folder, SQLite reads it in place.
 */
export function needsPrivateReadCopy(path: string): boolean {
  return existsSync(`${path}-wal`) && !existsSync(`${path}-shm`) && !isWritable(dirname(path));
}

/** The one line a reader says when it reads a private copy of `path`. */
export function privateReadCopyNotice(path: string): string {
  return (
    `m3: ${path} has a -wal but no -shm in a read-only folder: reading a private copy of it and its -wal ` +
    '(the original is left untouched)'
  );
}

/**
 * Copies `path` and its `-wal` into a fresh 0700 folder under the temp dir, so SQLite can create
 * the `-shm` there and read everything the `-wal` holds; the original is only read. No writer can
 * be mid-transaction on the original: a writer in WAL mode keeps a `-shm` beside the file.
 */
export function makePrivateReadCopy(path: string): PrivateReadCopy {
  let folder: string;
  try {
    folder = mkdtempSync(join(tmpdir(), 'sf-m3-read-copy-'));
  } catch (error) {
    throw new StoreError(
      `cannot read results database ${path} in place (its folder is read-only and it has a -wal but no -shm), and ` +
        `cannot make a private copy under ${tmpdir()} (${String((error as NodeJS.ErrnoException).code)}): ` +
        'set TMPDIR to a writable folder, or copy the database with its -wal somewhere writable',
      { path },
      { cause: error },
    );
  }
  let removed = false;
  const remove = (): void => {
    if (removed) return;
    removed = true;
    process.removeListener('exit', remove);
    rmSync(folder, { recursive: true, force: true });
  };
  process.once('exit', remove);
  try {
    chmodSync(folder, 0o700);
    const copy = join(folder, basename(path));
    for (const suffix of ['', '-wal']) {
      copyFileSync(`${path}${suffix}`, `${copy}${suffix}`);
      chmodSync(`${copy}${suffix}`, 0o600);
    }
    return { path: copy, remove };
  } catch (error) {
    remove();
    throw new StoreError(
      `cannot copy results database ${path} and its -wal to a private folder to read them ` +
        `(${String((error as NodeJS.ErrnoException).code)}): check that both files are readable and TMPDIR has room`,
      { path },
      { cause: error },
    );
  }
}
