import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { findPostgresBinDir, NO_POSTGRES_TOOLS } from './postgresBinaries';

const run = promisify(execFile);

/** Debian's `nobody`/`nogroup`: initdb and postgres refuse to run as root. */
const NOBODY = 65534;

/**
 * A PostgreSQL cluster of its own for tests and benches: `initdb` in a fresh temporary folder,
 * `pg_ctl start` on a free loopback port, password (SCRAM) login, and `stop()` that shuts it down
 * and removes the folder. As root, the server runs as `nobody` (initdb refuses root). No mock: it
 * is the real server the package talks to in production.
 */
export class ThrowawayCluster {
  private stopped = false;
  private databases = 0;
  private schemas = 0;
  private shared: Promise<string> | null = null;

  /** Another process's running cluster, from its `description()`: used, never started or stopped here. */
  static attach(description: ClusterDescription): ThrowawayCluster {
    const { dir, port, user, password, binDir } = description;
    return new ThrowawayCluster(dir, port, user, password, binDir);
  }

  private constructor(
    /** The temporary folder: data, socket and log. */
    readonly dir: string,
    readonly port: number,
    readonly user: string,
    private readonly password: string,
    private readonly binDir: string,
  ) {}

  /** Starts a cluster; throws with the install fix when initdb/pg_ctl are missing. */
  static async start(): Promise<ThrowawayCluster> {
    const binDir = findPostgresBinDir();
    if (binDir === null) throw new Error(NO_POSTGRES_TOOLS);
    const dir = mkdtempSync(join(tmpdir(), 'm3-pg-'));
    const password = randomBytes(12).toString('hex');
    const asRoot = process.getuid?.() === 0;
    try {
      if (asRoot) chownSync(dir, NOBODY, NOBODY);
      chmodSync(dir, 0o700);
      const passwordFile = join(dir, 'password');
      writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 });
      if (asRoot) chownSync(passwordFile, NOBODY, NOBODY);
      await asServerUser(join(binDir, 'initdb'), [
        '-D',
        join(dir, 'data'),
        '-U',
        'm3',
        `--pwfile=${passwordFile}`,
        '--auth=scram-sha-256',
        '-E',
        'UTF8',
        '--no-locale',
        '--no-sync',
      ]);
      rmSync(passwordFile);
      for (let tries = 1; ; tries += 1) {
        const port = await freePort();
        try {
          await asServerUser(join(binDir, 'pg_ctl'), [
            '-D',
            join(dir, 'data'),
            '-l',
            join(dir, 'server.log'),
            '-w',
            '-t',
            '60',
            '-o',
            [
              `-c port=${port}`,
              '-c listen_addresses=127.0.0.1',
              `-c unix_socket_directories=${dir}`,
              '-c fsync=off',
              '-c synchronous_commit=off',
              '-c full_page_writes=off',
              '-c max_connections=200',
            ].join(' '),
            'start',
          ]);
          return new ThrowawayCluster(dir, port, 'm3', password, binDir);
        } catch (error) {
          // Another program may have taken the port between the probe and the start.
          if (tries >= 3) throw new Error(`${(error as Error).message}\n${serverLog(dir)}`, { cause: error });
        }
      }
    } catch (error) {
      rmSync(dir, { recursive: true, force: true });
      throw error;
    }
  }

  /**
   * What another process needs to use this cluster (`attach`) and to stop it (`stopCommand`, run
   * as is, then remove `dir`). Holds the password: keep it in a private folder.
   */
  description(): ClusterDescription {
    const { dir, port, user, password, binDir } = this;
    return { dir, port, user, password, binDir, stopCommand: serverUserCommand(...this.stopArgs()) };
  }

  /** The connection URL of `database` (credentials included: treat it as a secret). */
  url(database = 'postgres'): string {
    return `postgres://${this.user}:${this.password}@127.0.0.1:${this.port}/${database}`;
  }

  /** Creates a fresh empty database and returns its URL. */
  async createDatabase(name = `m3_test_${++this.databases}_${randomBytes(3).toString('hex')}`): Promise<string> {
    const client = new Client({ connectionString: this.url() });
    await client.connect();
    try {
      await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
    } finally {
      await client.end();
    }
    return this.url(name);
  }

  /**
   * A fresh empty schema in one shared database, as a URL whose `options` put it first on the
   * search path: as isolated as a new database for a store, and much faster to make (no copy of
   * the template database).
   */
  async createSchema(): Promise<string> {
    // Its own shared database: several processes may use one cluster (see runCluster.ts).
    this.shared ??= this.createDatabase(`m3_schemas_${randomBytes(4).toString('hex')}`);
    const url = await this.shared;
    const name = `m3_${++this.schemas}_${randomBytes(3).toString('hex')}`;
    const client = new Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(`CREATE SCHEMA ${name}`);
    } finally {
      await client.end();
    }
    return `${url}?options=${encodeURIComponent(`-c search_path=${name}`)}`;
  }

  /** Stops the server at once and removes its folder; idempotent. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    try {
      await asServerUser(...this.stopArgs());
    } finally {
      rmSync(this.dir, { recursive: true, force: true });
    }
  }

  private stopArgs(): [string, string[]] {
    return [join(this.binDir, 'pg_ctl'), ['-D', join(this.dir, 'data'), '-m', 'immediate', '-w', 'stop']];
  }
}

/** A running cluster as another process on the machine can use and stop it (see `description()`). */
export interface ClusterDescription {
  dir: string;
  port: number;
  user: string;
  password: string;
  binDir: string;
  /** The command line that stops the server (as `nobody` when root started it). */
  stopCommand: string[];
}

/** The command line running a server tool, as `nobody` when this process is root. */
function serverUserCommand(command: string, args: string[]): string[] {
  const asRoot = process.getuid?.() === 0;
  return asRoot
    ? ['setpriv', `--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', '--', command, ...args]
    : [command, ...args];
}

/** Runs a server tool, as `nobody` when this process is root. */
async function asServerUser(command: string, args: string[]): Promise<void> {
  const [file, ...argv] = serverUserCommand(command, args);
  try {
    await run(file!, argv, { cwd: tmpdir(), timeout: 120_000 });
  } catch (error) {
    const { stderr, stdout } = error as { stderr?: string; stdout?: string };
    throw new Error(
      `${command} ${args.at(-1) ?? ''} failed: ${(stderr || stdout || (error as Error).message).trim()}`,
      {
        cause: error,
      },
    );
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject()));
    });
  });
}

function serverLog(dir: string): string {
  try {
    return readFileSync(join(dir, 'server.log'), 'utf8').slice(-2000);
  } catch {
    return '';
  }
}
