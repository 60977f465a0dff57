import asyncHooks = require('node:async_hooks');
import { trackFileAsyncLocalStorages } from './fileAsyncLocalStorages';

describe('trackFileAsyncLocalStorages', () => {
  test('a storage made while tracking works as any, and release() disables it and restores the class', () => {
    const before = asyncHooks.AsyncLocalStorage;
    const tracking = trackFileAsyncLocalStorages();
    const storage = new asyncHooks.AsyncLocalStorage<number>();
    expect(storage).toBeInstanceOf(before);
    expect(storage.constructor.name).toBe('AsyncLocalStorage');
    expect(storage.run(7, () => storage.getStore())).toBe(7);
    storage.enterWith(5);
    expect(storage.getStore()).toBe(5);

    tracking.release();
    expect(storage.getStore()).toBeUndefined();
    expect(asyncHooks.AsyncLocalStorage).toBe(before);
    // A disabled storage comes back on its next run(), as Node documents.
    expect(storage.run(8, () => storage.getStore())).toBe(8);
  });

  test('a storage made after release() is not tracked, and release() twice is harmless', () => {
    const before = asyncHooks.AsyncLocalStorage;
    const tracking = trackFileAsyncLocalStorages();
    tracking.release();
    const later = new asyncHooks.AsyncLocalStorage<number>();
    expect(later.constructor).toBe(before);
    later.enterWith(3);
    tracking.release();
    expect(later.getStore()).toBe(3);
    later.disable();
  });

  test('trackers nest: the inner release restores the outer tracker’s class, which still releases its own', () => {
    const before = asyncHooks.AsyncLocalStorage;
    const outer = trackFileAsyncLocalStorages();
    const outerStorage = new asyncHooks.AsyncLocalStorage<string>();
    const outerClass = asyncHooks.AsyncLocalStorage;
    const inner = trackFileAsyncLocalStorages();
    const innerStorage = new asyncHooks.AsyncLocalStorage<string>();
    outerStorage.enterWith('outer');
    innerStorage.enterWith('inner');

    inner.release();
    expect(innerStorage.getStore()).toBeUndefined();
    expect(outerStorage.getStore()).toBe('outer');
    expect(asyncHooks.AsyncLocalStorage).toBe(outerClass);

    outer.release();
    expect(outerStorage.getStore()).toBeUndefined();
    expect(asyncHooks.AsyncLocalStorage).toBe(before);
  });
});
