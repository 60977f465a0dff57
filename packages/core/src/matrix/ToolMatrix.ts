import { ModelValidationError } from '../errors';
import { cellIdOf, checkMatrixName, deriveMatrixId } from './caseIds';
import { ServerCase } from './ServerCase';
import { ToolMatrixCase } from './ToolMatrixCase';

/** Options of `new ToolMatrix(...)`. */
export interface ToolMatrixOptions {
  /** Matrix id (aggregation label `matrixId`); default: derived from the servers and tools. */
  id?: string;
  /** Independent executions per cell (default 1). Trials are not retries. */
  trials?: number;
  /** The server cases, each with its tool cases (at least one; names unique). */
  servers: ServerCase[];
}

/** The `test` function of Jest's globals that `matrix.test` registers cells with. */
type JestTestFunction = (name: string, fn: () => unknown, timeout?: number) => void;

/**
 * Deterministic tool calls across servers and trials (contract §13): every tool case of every server
 * case, `trials` times. Construction and `cases()` are pure: no MCP, process, network or store
 * work happens until a cell's `run()` or `session()`.
 *
 * @example
 * const matrix = new ToolMatrix({ servers: [new ServerCase({ name: 'catalog', server, tools: [
 *   new ToolCase({ name: 'normalize_customer', arguments: { name: 'Ada' } })] })] });
 * matrix.test('contract', async (cell) => expect(await cell.run()).toBeCompleted());
 */
export class ToolMatrix {
  /** The matrix id: `id`, else `matrix-` + 24 hex of the sha256 of its servers and tools. */
  readonly id: string;
  readonly trials: number;
  readonly servers: readonly ServerCase[];

  constructor(options: ToolMatrixOptions) {
    const example = 'new ToolMatrix({ servers: [new ServerCase({ name, server, tools })] })';
    if (typeof options !== 'object' || options === null) {
      throw new ModelValidationError(`ToolMatrix needs options, e.g. ${example}`);
    }
    const trials = options.trials ?? 1;
    if (typeof trials !== 'number' || !Number.isInteger(trials) || trials < 1) {
      throw new ModelValidationError(`ToolMatrix trials must be an integer >= 1 (got ${String(trials)})`, {
        option: 'trials',
      });
    }
    this.trials = trials;
    if (!Array.isArray(options.servers) || options.servers.length === 0) {
      throw new ModelValidationError(`ToolMatrix needs at least one server case: ${example}`, { option: 'servers' });
    }
    const names = new Map<string, number>();
    options.servers.forEach((server, index) => {
      if (!(server instanceof ServerCase)) {
        throw new ModelValidationError(
          `ToolMatrix servers[${index}] is not a ServerCase: wrap it in new ServerCase({ name, server, tools })`,
        );
      }
      const previous = names.get(server.name);
      if (previous !== undefined) {
        throw new ModelValidationError(
          `ToolMatrix has the server case name '${server.name}' twice (servers[${previous}] and servers[${index}]): names must be unique`,
          { server: server.name },
        );
      }
      names.set(server.name, index);
    });
    this.servers = Object.freeze([...options.servers]);
    this.id =
      options.id === undefined
        ? deriveMatrixId({ servers: this.servers.map((s) => s.toJSON()) })
        : checkMatrixName(options.id, 'ToolMatrix id', "new ToolMatrix({ id: 'catalog-contract', servers })");
    this.checkUniqueCellIds();
    Object.freeze(this);
  }

  /**
   * Every cell, in order servers → tools → trial 1..N. Pure: builds values only, so calling it
   * (e.g. while Jest collects tests) never starts a server.
   */
  cases(): ToolMatrixCase[] {
    const cells: ToolMatrixCase[] = [];
    for (const server of this.servers) {
      for (const tool of server.tools) {
        for (let trial = 1; trial <= this.trials; trial += 1) {
          cells.push(new ToolMatrixCase({ server, tool, matrixId: this.id, trial, trialCount: this.trials }));
        }
      }
    }
    return cells;
  }

  /**
   * Registers one Jest test per cell through the global `test` (so call it where `test` is
   * allowed: at the top of a file or inside `describe`). Titles are `title [server/tool]`, with
   * ` trial N/M` when trials > 1; each runs `fn(cell)`.
   */
  test(title: string, fn: (cell: ToolMatrixCase) => unknown, timeout?: number): void {
    if (typeof title !== 'string' || title.trim() === '') {
      throw new ModelValidationError("matrix.test needs a title: matrix.test('contract', async (cell) => { ... })");
    }
    if (typeof fn !== 'function') {
      throw new ModelValidationError(`matrix.test('${title}', fn): fn must be a function receiving the cell`);
    }
    const register = (globalThis as { test?: unknown }).test;
    if (typeof register !== 'function') {
      throw new ModelValidationError(
        'matrix.test() registers Jest tests, but no global test() function exists: call it in a Jest test file ' +
          '(with injectGlobals on), or loop over matrix.cases() and call cell.run({ kit }) yourself',
      );
    }
    for (const cell of this.cases()) {
      (register as JestTestFunction)(`${title} [${cell.toString()}]`, () => fn(cell), timeout);
    }
  }

  /** Every generated case id must be unique (names holding `/` could otherwise collide). */
  private checkUniqueCellIds(): void {
    const seen = new Map<string, string>();
    for (const server of this.servers) {
      for (const tool of server.tools) {
        const cellId = cellIdOf(server.name, tool.id);
        const owner = `server case '${server.name}', tool '${tool.id}'`;
        const previous = seen.get(cellId);
        if (previous !== undefined) {
          throw new ModelValidationError(
            `ToolMatrix case id '${cellId}' is generated twice (${previous} and ${owner}): rename a server case or give a tool an id`,
          );
        }
        seen.set(cellId, owner);
      }
    }
  }
}
