import { ModelValidationError } from '../errors';
import { InProcessServer } from '../servers/InProcessServer';
import { StdioServer } from '../servers/StdioServer';
import { ServerCase } from './ServerCase';
import { ToolCase } from './ToolCase';

const server = new StdioServer({ name: 'catalog', command: process.execPath, args: ['server.js'] });

function thrown(build: () => unknown): Error {
  try {
    build();
  } catch (error) {
    expect(error).toBeInstanceOf(ModelValidationError);
    return error as Error;
  }
  throw new Error('expected a ModelValidationError');
}

describe('ToolCase', () => {
  test('defaults id to name and arguments to {}; is frozen', () => {
    const tool = new ToolCase({ name: 'search' });
    expect(tool).toMatchObject({ name: 'search', id: 'search', arguments: {}, prompt: undefined });
    expect(Object.isFrozen(tool)).toBe(true);
    expect(Object.isFrozen(tool.arguments)).toBe(true);
  });

  test('copies its arguments', () => {
    const args = { name: 'Ada' };
    const tool = new ToolCase({ name: 'normalize_customer', arguments: args, prompt: 'Normalize Ada' });
    args.name = 'Grace';
    expect(tool.arguments).toEqual({ name: 'Ada' });
    expect(tool.toJSON()).toEqual({
      name: 'normalize_customer',
      id: 'normalize_customer',
      arguments: { name: 'Ada' },
      prompt: 'Normalize Ada',
    });
  });

  test('rejects bad names, ids, arguments and prompts with clear messages', () => {
    expect(thrown(() => new ToolCase({ name: '' })).message).toMatch(/ToolCase name must be a non-empty string/);
    expect(thrown(() => new ToolCase({ name: 'x'.repeat(257) })).message).toMatch(/longer than 256/);
    expect(thrown(() => new ToolCase({ name: 'a', id: '  ' })).message).toMatch(/ToolCase id must be/);
    expect(
      thrown(() => new ToolCase({ name: 'a', arguments: [] as unknown as Record<string, unknown> })).message,
    ).toMatch(/ToolCase 'a' arguments must be an object/);
    expect(thrown(() => new ToolCase({ name: 'a', prompt: '' })).message).toMatch(/prompt must be a non-empty/);
    expect(thrown(() => new ToolCase(undefined as unknown as { name: string })).message).toMatch(/needs options/);
  });
});

describe('ServerCase', () => {
  test('holds a server definition and its tools (in-process servers too)', () => {
    const tools = [new ToolCase({ name: 'search' }), new ToolCase({ name: 'get' })];
    const serverCase = new ServerCase({ name: ' catalog ', server, tools });
    expect(serverCase.name).toBe('catalog');
    expect(serverCase.tools.map((t) => t.id)).toEqual(['search', 'get']);
    expect(serverCase.tool('get')).toBe(tools[1]);
    expect(Object.isFrozen(serverCase.tools)).toBe(true);
    const memory = new InProcessServer({ name: 'memory', factory: () => null as never });
    expect(new ServerCase({ name: 'memory', server: memory, tools }).server).toBe(memory);
  });

  test('rejects a missing server, empty or foreign tools, and duplicate tool ids', () => {
    expect(
      thrown(() => new ServerCase({ name: 'c', server: {} as StdioServer, tools: [new ToolCase({ name: 'a' })] }))
        .message,
    ).toMatch(/ServerCase 'c' needs a server: a StdioServer, HTTPServer or InProcessServer/);
    expect(thrown(() => new ServerCase({ name: 'c', server, tools: [] })).message).toMatch(
      /ServerCase 'c' needs at least one tool/,
    );
    expect(
      thrown(() => new ServerCase({ name: 'c', server, tools: [{ name: 'a' } as unknown as ToolCase] })).message,
    ).toMatch(/tools\[0\] is not a ToolCase/);
    const duplicate = thrown(
      () =>
        new ServerCase({
          name: 'catalog',
          server,
          tools: [new ToolCase({ name: 'search' }), new ToolCase({ name: 'get' }), new ToolCase({ name: 'search' })],
        }),
    );
    expect(duplicate.message).toMatch(/tool id 'search' twice \(tools\[0\] and tools\[2\]\): give one of them an id/);
    expect(thrown(() => new ServerCase({ name: '', server, tools: [new ToolCase({ name: 'a' })] })).message).toMatch(
      /ServerCase name must be a non-empty string/,
    );
  });

  test('tool() names the known ids when a lookup fails', () => {
    const serverCase = new ServerCase({ name: 'catalog', server, tools: [new ToolCase({ name: 'search' })] });
    expect(thrown(() => serverCase.tool('missing')).message).toBe(
      "tool 'missing' was not found on server case 'catalog': it has 'search'",
    );
  });
});
