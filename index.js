// `sf-m3`: everything a test imports, in one place — the kit, servers, traces, evaluations and
// judges (@sf-m3/core), the SQLite store, the matchers (pure entry: importing does not call
// expect.extend), and `describeM3` / `m3Kit` / `getM3Kit` for projects with `injectGlobals: false`.
// Importing this module performs no I/O.
'use strict';

module.exports = {
  ...require('@sf-m3/core'),
  ...require('@sf-m3/store-sqlite'),
  ...require('@sf-m3/matchers'),
  ...require('@sf-m3/jest-environment/dist/runtime.js'),
};
