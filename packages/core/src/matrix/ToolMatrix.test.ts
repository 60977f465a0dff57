import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { ModelValidationError } from '../errors';
import { HTTPServer } from '../servers/HTTPServer';
import { InProcessServer } from '../servers/InProcessServer';
import { StdioServer } from '../servers/StdioServer';
import { ServerCase } from './ServerCase';
import { ToolCase } from './ToolCase';
import { ToolMatrix } from './ToolMatrix';
import type { ToolMatrixCase } from './ToolMatrixCase';

const neverStarted = (): never => {
  throw new Error('the matrix started a server');
};
const inProcess = new InProcessServer({ name: 'catalog-server', factory: neverStarted });

function catalogMatrix(options: { id?: string; trials?: number } = {}): ToolMatrix {
  return new ToolMatrix({
    ...options,
    servers: [
      new ServerCase({
        name: 'catalog',
        server: inProcess,
        tools: [
          new ToolCase({ name: 'normalize_customer', arguments: { name: 'Ada' } }),
          new ToolCase({ name: 'batch_total', arguments: { values: [1, 2, 3] } }),
        ],
      }),
      new ServerCase({
        name: 'warehouse',
        server: inProcess,
        tools: [new ToolCase({ name: 'shipping_quote', arguments: { weight_kg: 2, zone: 'local' } })],
      }),
    ],
  });
}

function expectValidationError(build: () => unknown, message: RegExp): void {
  let thrown: unknown;
  try {
    build();
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(ModelValidationError);
  expect((thrown as Error).message).toMatch(message);
}

/** The event-loop resources in `after` beyond those in `before`, counted by kind. */
function newResources(before: string[], after: string[]): string[] {
  const left = [...before];
  return after.filter((kind) => {
    const index = left.indexOf(kind);
    if (index === -1) return true;
    left.splice(index, 1);
    return false;
  });
}

describe('ToolMatrix validation', () => {
  const serverCase = (name: string): ServerCase =>
    new ServerCase({ name, server: inProcess, tools: [new ToolCase({ name: 'echo' })] });

  test('needs at least one server case, and ServerCase instances', () => {
    expectValidationError(() => new ToolMatrix({ servers: [] }), /at least one server case/);
    expectValidationError(
      () => new ToolMatrix({ servers: undefined as unknown as ServerCase[] }),
      /at least one server case/,
    );
    expectValidationError(
      () => new ToolMatrix({ servers: [{ name: 'x' } as unknown as ServerCase] }),
      /servers\[0\] is not a ServerCase/,
    );
    expectValidationError(() => new ToolMatrix(null as unknown as { servers: ServerCase[] }), /needs options/);
  });

  test('rejects duplicate server case names, naming both positions', () => {
    expectValidationError(
      () => new ToolMatrix({ servers: [serverCase('catalog'), serverCase('other'), serverCase('catalog')] }),
      /server case name 'catalog' twice \(servers\[0\] and servers\[2\]\)/,
    );
  });

  test.each([0, -1, 1.5, Number.NaN, '2'])('rejects trials = %p', (trials) => {
    expectValidationError(
      () => new ToolMatrix({ trials: trials as number, servers: [serverCase('catalog')] }),
      /trials must be an integer >= 1/,
    );
  });

  test('rejects an empty or overlong id', () => {
    expectValidationError(() => new ToolMatrix({ id: ' ', servers: [serverCase('a')] }), /ToolMatrix id must be/);
    expectValidationError(
      () => new ToolMatrix({ id: 'x'.repeat(257), servers: [serverCase('a')] }),
      /longer than 256 characters/,
    );
  });

  test('rejects names that generate the same case id twice', () => {
    const a = new ServerCase({ name: 'a/b', server: inProcess, tools: [new ToolCase({ name: 'c' })] });
    const b = new ServerCase({ name: 'a', server: inProcess, tools: [new ToolCase({ name: 'b/c' })] });
    expectValidationError(() => new ToolMatrix({ servers: [a, b] }), /case id 'a\/b\/c' is generated twice/);
  });
});

describe('ToolMatrix.cases()', () => {
  test('orders cells servers → tools and ids them server/tool with one trial', () => {
    const cells = catalogMatrix({ id: 'contract' }).cases();
    expect(cells.map((c) => c.caseId)).toEqual([
      'catalog/normalize_customer',
      'catalog/batch_total',
      'warehouse/shipping_quote',
    ]);
    expect(cells.map((c) => c.trial)).toEqual([1, 1, 1]);
    expect(cells[0]!.executionCaseId).toBe('contract:catalog/normalize_customer');
  });

  test('adds /trial-N with trials > 1, trials innermost, one cell id across trials', () => {
    const cells = catalogMatrix({ id: 'contract', trials: 2 }).cases();
    expect(cells.map((c) => c.caseId)).toEqual([
      'catalog/normalize_customer/trial-1',
      'catalog/normalize_customer/trial-2',
      'catalog/batch_total/trial-1',
      'catalog/batch_total/trial-2',
      'warehouse/shipping_quote/trial-1',
      'warehouse/shipping_quote/trial-2',
    ]);
    expect(new Set(cells.map((c) => c.cellId)).size).toBe(3);
    expect(cells[0]!.executionCaseId).toBe(cells[1]!.executionCaseId);
    expect(cells[0]!.toString()).toBe('catalog/normalize_customer trial 1/2');
  });

  test('cell metadata holds the m3.matrix.* keys', () => {
    const cell = catalogMatrix({ id: 'contract', trials: 2 }).cases()[3]!;
    expect(cell.metadata).toEqual({
      'm3.matrix.caseId': 'catalog/batch_total/trial-2',
      'm3.matrix.matrixId': 'contract',
      'm3.matrix.cellId': 'catalog/batch_total',
      'm3.matrix.mode': 'tool',
      'm3.matrix.servers': 'catalog',
      'm3.matrix.tool': 'batch_total',
      'm3.matrix.trial': 2,
      'm3.matrix.trialCount': 2,
    });
    expect(Object.isFrozen(cell.metadata)).toBe(true);
  });

  test('a tool id names the case while the MCP tool name stays in metadata', () => {
    const matrix = new ToolMatrix({
      id: 'ids',
      servers: [
        new ServerCase({
          name: 'catalog',
          server: inProcess,
          tools: [
            new ToolCase({ name: 'normalize_customer', id: 'ada', arguments: { name: 'Ada' } }),
            new ToolCase({ name: 'normalize_customer', id: 'grace', arguments: { name: 'Grace' } }),
          ],
        }),
      ],
    });
    const [ada, grace] = matrix.cases();
    expect([ada!.caseId, grace!.caseId]).toEqual(['catalog/ada', 'catalog/grace']);
    expect(grace!.metadata['m3.matrix.tool']).toBe('normalize_customer');
    expect(grace!.spec().arguments).toEqual({ name: 'Grace' });
  });

  test('derives a stable matrix id from servers and tools, not from trials', () => {
    const one = catalogMatrix();
    expect(one.id).toMatch(/^matrix-[0-9a-f]{24}$/);
    expect(catalogMatrix().id).toBe(one.id);
    expect(catalogMatrix({ trials: 3 }).id).toBe(one.id);
    const changed = new ToolMatrix({
      servers: [
        new ServerCase({
          name: 'catalog',
          server: inProcess,
          tools: [new ToolCase({ name: 'normalize_customer', arguments: { name: 'Grace' } })],
        }),
      ],
    });
    expect(changed.id).not.toBe(one.id);
    expect(one.cases().every((c) => c.matrixId === one.id && c.metadata['m3.matrix.matrixId'] === one.id)).toBe(true);
  });

  test('does no MCP, process, network or store work', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'm3-matrix-'));
    const sentinel = path.join(dir, 'started');
    let requests = 0;
    const listener = http.createServer((_req, res) => {
      requests += 1;
      res.end();
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    try {
      const port = (listener.address() as AddressInfo).port;
      let factoryCalls = 0;
      const matrix = new ToolMatrix({
        trials: 2,
        servers: [
          new ServerCase({
            name: 'stdio',
            server: new StdioServer({
              name: 'stdio',
              command: process.execPath,
              args: ['-e', `require('fs').writeFileSync(${JSON.stringify(sentinel)}, 'x')`],
            }),
            tools: [new ToolCase({ name: 'echo' })],
          }),
          new ServerCase({
            name: 'http',
            server: new HTTPServer({ name: 'http', url: `http://127.0.0.1:${port}/mcp` }),
            tools: [new ToolCase({ name: 'echo' })],
          }),
          new ServerCase({
            name: 'memory',
            server: new InProcessServer({
              name: 'memory',
              factory: () => {
                factoryCalls += 1;
                return neverStarted();
              },
            }),
            tools: [new ToolCase({ name: 'echo' })],
          }),
        ],
      });
      // Everything the event loop holds (handles, requests, timers) before planning: any process,
      // socket or timer planning started, even one that would act later, shows up against it.
      const resourcesBefore = process.getActiveResourcesInfo();
      const cells = matrix.cases();
      cells.forEach((cell) => cell.spec());
      const registered: string[] = [];
      const previous = (globalThis as { test?: unknown }).test;
      (globalThis as { test?: unknown }).test = (title: string) => registered.push(title);
      try {
        matrix.test('no io', () => neverStarted());
      } finally {
        (globalThis as { test?: unknown }).test = previous;
      }
      // One turn of the event loop lets work queued by the calls start; with no new resource
      // left pending after it, nothing can start later either (no clock involved).
      await new Promise((resolve) => setImmediate(resolve));
      expect(newResources(resourcesBefore, process.getActiveResourcesInfo())).toEqual([]);
      expect(cells).toHaveLength(6);
      expect(registered).toHaveLength(6);
      expect(fs.existsSync(sentinel)).toBe(false);
      expect(requests).toBe(0);
      expect(factoryCalls).toBe(0);
    } finally {
      listener.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('ToolMatrix.test()', () => {
  type Registered = { title: string; fn: () => unknown; timeout: number | undefined };
  function withFakeTest(run: (registered: Registered[]) => void): Registered[] {
    const registered: Registered[] = [];
    const previous = (globalThis as { test?: unknown }).test;
    (globalThis as { test?: unknown }).test = (title: string, fn: () => unknown, timeout?: number) =>
      registered.push({ title, fn, timeout });
    try {
      run(registered);
    } finally {
      (globalThis as { test?: unknown }).test = previous;
    }
    return registered;
  }

  test('registers one Jest test per cell, titled with the cell, running fn(cell)', async () => {
    const seen: ToolMatrixCase[] = [];
    const registered = withFakeTest(() =>
      catalogMatrix({ trials: 2 }).test(
        'contract',
        async (cell) => {
          seen.push(cell);
          return cell.caseId;
        },
        5000,
      ),
    );
    expect(registered.map((r) => r.title)).toEqual([
      'contract [catalog/normalize_customer trial 1/2]',
      'contract [catalog/normalize_customer trial 2/2]',
      'contract [catalog/batch_total trial 1/2]',
      'contract [catalog/batch_total trial 2/2]',
      'contract [warehouse/shipping_quote trial 1/2]',
      'contract [warehouse/shipping_quote trial 2/2]',
    ]);
    expect(registered.every((r) => r.timeout === 5000)).toBe(true);
    expect(seen).toHaveLength(0);
    await expect(registered[3]!.fn()).resolves.toBe('catalog/batch_total/trial-2');
    expect(seen.map((c) => c.caseId)).toEqual(['catalog/batch_total/trial-2']);
  });

  test('titles carry no trial suffix with one trial', () => {
    const registered = withFakeTest(() => catalogMatrix().test('contract', () => undefined));
    expect(registered.map((r) => r.title)[0]).toBe('contract [catalog/normalize_customer]');
  });

  test('says how to proceed when there is no global test function', () => {
    const previous = (globalThis as { test?: unknown }).test;
    (globalThis as { test?: unknown }).test = undefined;
    try {
      expectValidationError(
        () => catalogMatrix().test('contract', () => undefined),
        /no global test\(\) function exists.*matrix\.cases\(\)/,
      );
    } finally {
      (globalThis as { test?: unknown }).test = previous;
    }
  });

  test('checks its title and function', () => {
    expectValidationError(() => catalogMatrix().test('', () => undefined), /needs a title/);
    expectValidationError(
      () => catalogMatrix().test('t', 'nope' as unknown as () => void),
      /fn must be a function receiving the cell/,
    );
  });
});
