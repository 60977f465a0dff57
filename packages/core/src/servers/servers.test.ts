import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ModelValidationError } from '../errors';
import { secretFromEnv } from '../redaction/SecretRef';
import { HTTPServer } from './HTTPServer';
import { InProcessServer } from './InProcessServer';
import { isServerDefinition } from './ServerDefinition';
import { StdioServer } from './StdioServer';

describe('StdioServer', () => {
  it('keeps a frozen definition and describes itself without the command line', () => {
    const server = new StdioServer({
      name: ' math ',
      command: '/usr/local/bin/node',
      args: ['server.js', '--secret-flag'],
      env: { MODE: 'test', API_TOKEN: 'plain-token-value', OTHER: secretFromEnv('OTHER_SECRET') },
      cwd: '/tmp',
    });
    expect(server.kind).toBe('stdio');
    expect(server.name).toBe('math');
    expect(Object.isFrozen(server)).toBe(true);
    expect(Object.isFrozen(server.args)).toBe(true);
    expect(server.describe()).toEqual({ name: 'math', transport: 'stdio', target: 'node' });
    expect(server.toJSON()).toEqual({
      kind: 'stdio',
      name: 'math',
      command: '/usr/local/bin/node',
      args: ['server.js', '--secret-flag'],
      env: { MODE: 'test', API_TOKEN: '[REDACTED]', OTHER: { kind: 'secret_ref', env: 'OTHER_SECRET' } },
      cwd: '/tmp',
    });
    expect(isServerDefinition(server)).toBe(true);
  });

  it.each([
    [{ name: '', command: 'node' }, /non-empty name/],
    [{ name: 'x'.repeat(257), command: 'node' }, /longer than 256/],
    [{ name: 'a', command: '  ' }, /non-empty command/],
    [{ name: 'a', command: 'node', args: [1] }, /args must be a list of strings/],
    [{ name: 'a', command: 'node', args: ['a\0b'] }, /NUL/],
    [{ name: 'a', command: 'node', cwd: 'relative/dir' }, /cwd must be an absolute path/],
    [{ name: 'a', command: 'node', env: { A: 3 } }, /env entry A must be a string or secretFromEnv/],
    [{ name: 'a', command: 'node', env: { 'A=B': 'x' } }, /invalid name/],
  ])('rejects invalid options %#', (options, message) => {
    expect(() => new StdioServer(options as never)).toThrow(ModelValidationError);
    expect(() => new StdioServer(options as never)).toThrow(message);
  });

  it('never puts an env value in an error message', () => {
    expect(() => new StdioServer({ name: 'a', command: 'node', env: { K: 'top\0secret' } })).toThrow(
      /^StdioServer a env entry K contains a NUL character: remove it$/,
    );
  });
});

describe('HTTPServer', () => {
  it('defaults trust and describes the URL without its query', () => {
    const server = new HTTPServer({
      name: 'remote',
      url: 'https://mcp.example.com/mcp?tenant=a',
      headers: { Authorization: 'Bearer abcdefgh', 'X-Api-Key': secretFromEnv('REMOTE_KEY'), Accept: 'x' },
    });
    expect(server.trust).toBe('default');
    expect(server.describe()).toEqual({ name: 'remote', transport: 'http', target: 'https://mcp.example.com/mcp' });
    expect(server.toJSON()).toEqual({
      kind: 'http',
      name: 'remote',
      url: 'https://mcp.example.com/mcp',
      headers: { Authorization: '[REDACTED]', 'X-Api-Key': { kind: 'secret_ref', env: 'REMOTE_KEY' }, Accept: 'x' },
      trust: 'default',
    });
  });

  it('does no URL trust checks at construction (they happen at connect)', () => {
    expect(() => new HTTPServer({ name: 'p', url: 'http://10.0.0.1/mcp' })).not.toThrow();
  });

  it.each([
    [{ name: 'a', url: '' }, /needs a url/],
    [{ name: 'a', url: 'http://x', trust: 'yes' }, /trust must be one of default, trusted_private/],
    [{ name: 'a', url: 'http://x', headers: { 'Bad Header': 'x' } }, /invalid name/],
    [{ name: 'a', url: 'http://x', headers: { A: 'line\r\nInjected: 1' } }, /line break/],
  ])('rejects invalid options %#', (options, message) => {
    expect(() => new HTTPServer(options as never)).toThrow(ModelValidationError);
    expect(() => new HTTPServer(options as never)).toThrow(message);
  });
});

describe('InProcessServer', () => {
  it('keeps the factory and calls nothing at construction', () => {
    const factory = jest.fn(() => new McpServer({ name: 'x', version: '1.0.0' }));
    const server = new InProcessServer({ name: 'mem', factory });
    expect(factory).not.toHaveBeenCalled();
    expect(server.describe()).toEqual({ name: 'mem', transport: 'in_process', target: 'in-memory' });
    expect(server.toJSON()).toEqual({ kind: 'in_process', name: 'mem' });
    expect(new InProcessServer({ name: 'pinned', factory, protocol: 'legacy' }).toJSON()).toEqual({
      kind: 'in_process',
      name: 'pinned',
      protocol: 'legacy',
    });
  });

  it('needs a factory function', () => {
    expect(() => new InProcessServer({ name: 'mem', factory: 'nope' as never })).toThrow(/needs a factory function/);
  });
});

describe('the protocol setting in toJSON', () => {
  it('shows a pinned era and leaves the default out, so unpinned matrix ids stay as they were', () => {
    const stdio = (protocol?: 'legacy' | 'auto') => new StdioServer({ name: 's', command: 'node', protocol });
    const http = (protocol?: '2026-07-28') => new HTTPServer({ name: 'h', url: 'http://127.0.0.1/mcp', protocol });
    expect(stdio().toJSON()).not.toHaveProperty('protocol');
    expect(stdio('auto').toJSON()).toEqual(stdio().toJSON());
    expect(stdio('legacy').toJSON()).toMatchObject({ protocol: 'legacy' });
    expect(http().toJSON()).not.toHaveProperty('protocol');
    expect(http('2026-07-28').toJSON()).toMatchObject({ protocol: '2026-07-28' });
  });
});
