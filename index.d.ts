// Types of `sf-m3` (see index.js). For the `describe.m3` / `m3Kit` globals and the matcher types,
// add "sf-m3/globals" to the `types` of your tsconfig.json.
export * from '@sf-m3/core';
export * from '@sf-m3/store-sqlite';
export * from '@sf-m3/matchers';
export { describeM3, getM3Kit, m3Kit, testM3 } from '@sf-m3/jest-environment';
export type {
  DescribeM3,
  DescribeM3Function,
  M3SuiteOptions,
  TestM3,
  TestM3Context,
  TestM3Function,
} from '@sf-m3/jest-environment';
