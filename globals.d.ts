// Global types added by the `sf-m3` preset: `m3Kit`, `describe.m3`, and the sf-m3 matchers on
// `expect`. Use with `"types": ["jest", "sf-m3/globals"]` in tsconfig.json. With
// `injectGlobals: false`, import `describeM3` and `m3Kit` from 'sf-m3' instead.
import type { MCPTestKit } from '@sf-m3/core';
import type { DescribeM3, TestM3 } from '@sf-m3/jest-environment';
import type {} from '@sf-m3/matchers';

declare global {
  /**
   * The kit of the test running now: fresh for every test, bound to the test's run, suite and
   * case, and closed (every client and child process reaped) when the test ends.
   */
  var m3Kit: MCPTestKit;

  namespace jest {
    interface Describe {
      /**
       * Declares an sf-m3 suite; tests inside inherit its name (trimmed, 1–256 characters).
       * @example describe.m3('shipping', () => { test('quotes', async () => { ... }) })
       * @example describe.m3('shipping', { trials: 3 }, () => { ... })
       */
      m3: DescribeM3;
    }

    interface It {
      /**
       * One test per selected server × agent × trial (from the closest `describe.m3` options, or the
       * CLI's --server/--harness/--trials), titled `name [server=…] [agent=…] [trial 2/3]`, all
       * sharing one case id.
       * @example test.m3('quotes', async ({ kit, server, trial }) => { ... })
       */
      m3: TestM3;
    }
  }
}

export {};
