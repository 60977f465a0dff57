import type { DirectClient } from '../client/DirectClient';
import type { ExecutionStore } from '../store/ExecutionStore';

/** An open agent session as the kit sees it: something `kit.close()` must close. */
export interface OpenSession {
  close(): Promise<unknown>;
}

/**
 * What a kit must clean up and remember: the executions it created, its open clients and agent
 * sessions, and the store writes still in flight. `closeAll()` fixes the close order: sessions
 * first, then clients (cancelling calls in flight), then every pending write (including writes
 * those closes started), then a store the kit owns.
 */
export class KitResources {
  private readonly executions: string[] = [];
  private readonly clients = new Set<DirectClient>();
  private readonly sessions = new Set<OpenSession>();
  private readonly pending = new Set<Promise<unknown>>();

  /** Remembers an execution the kit created (for `kit.executionIds()`). */
  executionCreated(executionId: string): void {
    this.executions.push(executionId);
  }

  /** Ids of the executions created so far, in creation order. */
  executionIds(): string[] {
    return [...this.executions];
  }

  /** Registers a client the kit made so `closeAll()` closes it. */
  clientOpened(client: DirectClient): void {
    this.clients.add(client);
  }

  /** Forgets a client that closed itself. */
  clientClosed(client: object): void {
    this.clients.delete(client as DirectClient);
  }

  /** Registers an open agent session; the returned function unregisters it. */
  sessionOpened(session: OpenSession): () => void {
    this.sessions.add(session);
    return () => this.sessions.delete(session);
  }

  /** Remembers `promise` until it settles, so `closeAll()` waits for it; returns it unchanged. */
  track<T>(promise: Promise<T>): Promise<T> {
    const settled = promise.then(
      () => undefined,
      () => undefined,
    );
    this.pending.add(settled);
    void settled.then(() => this.pending.delete(settled));
    return promise;
  }

  /**
   * Closes sessions, then clients, awaits pending writes, then closes `ownedStore` when given.
   * Everything is attempted; the first failure is rethrown at the end.
   */
  async closeAll(ownedStore: ExecutionStore | undefined): Promise<void> {
    const failures: unknown[] = [];
    const sessions = [...this.sessions];
    await Promise.all(sessions.map((s) => s.close().catch((e: unknown) => failures.push(e))));
    const clients = [...this.clients];
    await Promise.all(clients.map((c) => c.closeWith({ reason: 'kit' }).catch((e: unknown) => failures.push(e))));
    while (this.pending.size > 0) {
      await Promise.allSettled([...this.pending]);
    }
    if (ownedStore !== undefined) {
      await ownedStore.close().catch((e: unknown) => failures.push(e));
    }
    if (failures.length > 0) throw failures[0];
  }
}
