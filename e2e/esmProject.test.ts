// End-to-end: an ESM MCP server project (`"type": "module"`, `module: NodeNext`) that installed
// sf-m3 and wrote its tests the NodeNext way: `import … from './helpers/servers.js'` for the
// TypeScript source `./helpers/servers.ts`. One run of the installed `m3` bin, as `npx m3 test`.
import { removeFixture } from './cli.testkit';
import { exampleServer, installedFixture, installedM3 } from './init.testkit';

jest.setTimeout(180_000);

describe('an ESM project', () => {
  let folder: string;

  beforeAll(() => {
    folder = installedFixture('esm-project');
  });

  afterAll(() => {
    removeFixture(folder);
  });

  test('runs its NodeNext-style suite green through `m3 test`, without the hybrid-module warning', () => {
    const run = installedM3(folder, ['test'], { env: { EXAMPLE_SERVER: exampleServer } });
    const output = `${run.stdout}\n${run.stderr}`;

    expect(output).not.toContain("Cannot find module './helpers/servers.js'");
    expect(output).not.toContain('151002');
    expect(output).toMatch(/Tests:\s+1 passed, 1 total/);
    expect(run.status).toBe(0);
  });
});
