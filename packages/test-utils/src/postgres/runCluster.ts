import { existsSync, mkdirSync, readFileSync, renameSync, watch, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ClusterDescription, ThrowawayCluster } from './ThrowawayCluster';

/** Where a run keeps its cluster, inside the run's private folder (e2e/run/globalTeardown.js reads it). */
export const RUN_CLUSTER_FOLDER = 'postgres';
const DESCRIPTION = 'cluster.json';
const FAILURE = 'failure.txt';

/**
 * The one PostgreSQL cluster of a Jest run, shared by all its test files: the first file to ask
 * starts it and writes its description into `<runDir>/postgres/`; the others (in any worker)
 * wait for that file and attach. Each test still makes its own database or schema. The run's
 * globalTeardown stops the cluster and removes its folder.
 */
export async function runCluster(runDir: string): Promise<ThrowawayCluster> {
  const folder = join(runDir, RUN_CLUSTER_FOLDER);
  if (claim(folder)) {
    try {
      const cluster = await ThrowawayCluster.start();
      const temporary = join(folder, `${DESCRIPTION}.partial`);
      writeFileSync(temporary, JSON.stringify(cluster.description()), { mode: 0o600 });
      renameSync(temporary, join(folder, DESCRIPTION));
      return cluster;
    } catch (error) {
      writeFileSync(join(folder, FAILURE), (error as Error).message);
      throw error;
    }
  }
  await appeared(folder);
  if (existsSync(join(folder, FAILURE))) {
    throw new Error(`the run's PostgreSQL cluster did not start: ${readFileSync(join(folder, FAILURE), 'utf8')}`);
  }
  return ThrowawayCluster.attach(JSON.parse(readFileSync(join(folder, DESCRIPTION), 'utf8')) as ClusterDescription);
}

/** True for the one caller that creates `folder` (and so starts the cluster). */
function claim(folder: string): boolean {
  try {
    mkdirSync(folder);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/** Resolves once the starter has written the description or its failure into `folder`. */
function appeared(folder: string): Promise<void> {
  const done = (): boolean => existsSync(join(folder, DESCRIPTION)) || existsSync(join(folder, FAILURE));
  return new Promise((resolve) => {
    const watcher = watch(folder, () => {
      if (done()) {
        watcher.close();
        resolve();
      }
    });
    if (done()) {
      watcher.close();
      resolve();
    }
  });
}
