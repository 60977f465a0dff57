// Jest 30 leaks an AsyncLocalStorage per test file: jest-circus makes one in each file's sandbox (its
// test execution context) and never disables it. Before Node 24, node:async_hooks keeps every
// enabled storage in one list for the life of the process, and each promise or other async resource
// created afterwards visits every storage in it. So in a worker that has run N files, each promise
// costs N visits: a test awaiting 20 000 promises took 25 ms as a worker's first file and 400 ms as
// its 150th. An environment tracks the storages made while its file runs and disables them when the
// file is done with them; nothing outside the file's sandbox can reach them by then.
import asyncHooks = require('node:async_hooks');

type Storage = InstanceType<typeof asyncHooks.AsyncLocalStorage<unknown>>;

/** The storages one test file made; `release()` disables them and stops tracking. */
export interface FileAsyncLocalStorages {
  release(): void;
}

/**
 * Until `release()`, every `new AsyncLocalStorage()` in this worker is tracked: node:async_hooks
 * hands out a subclass that records its instances (same name, statics and behaviour). Jest runs one
 * file at a time in a worker, so what is made meanwhile is the file's, or a worker-wide storage made
 * on first use, which its next `run()` or `enterWith()` enables again. Where the class cannot be
 * replaced, nothing is tracked and the file runs as it would without this.
 */
export function trackFileAsyncLocalStorages(): FileAsyncLocalStorages {
  const Original = asyncHooks.AsyncLocalStorage;
  const created: Storage[] = [];
  const Tracked = class AsyncLocalStorage<T> extends Original<T> {
    constructor() {
      super();
      created.push(this as Storage);
    }
  };
  const exports = asyncHooks as { AsyncLocalStorage: typeof Original };
  try {
    exports.AsyncLocalStorage = Tracked;
  } catch {
    return { release: () => undefined };
  }
  return {
    release() {
      if (exports.AsyncLocalStorage === Tracked) exports.AsyncLocalStorage = Original;
      for (const storage of created.splice(0)) storage.disable();
    },
  };
}
