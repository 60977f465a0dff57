import { quote, renderStarter, starterPath } from './starterSuite';

describe('the starter suite', () => {
  test('its file is named after the suite', () => {
    expect(starterPath('mcp-behavior', 'ts')).toBe('tests/mcp-behavior.m3.test.ts');
    expect(starterPath('Catalog Server!', 'js')).toBe('tests/catalog-server.m3.test.js');
    expect(starterPath('***', 'ts')).toBe('tests/starter.m3.test.ts');
  });

  test('arguments become string literals that evaluate back to themselves', () => {
    for (const value of ["it's", 'C:\\srv\\a.js', 'two\nlines', '\u2028', '${x}`']) {
      expect(new Function(`return ${quote(value)};`)()).toBe(value);
    }
  });

  test('a stdio starter starts the command in the project folder; an HTTP one names the URL; none is skipped', () => {
    const stdio = renderStarter('shipping', { transport: 'stdio', command: 'node', args: ['dist/server.js'] }, 'ts');
    expect(stdio).toContain("import { StdioServer } from 'sf-m3';");
    expect(stdio).toContain("  args: ['dist/server.js'],\n  cwd: process.cwd(),\n");
    // Neither __dirname nor import.meta: one starter for CommonJS and ES module projects.
    expect(stdio).not.toMatch(/__dirname|import\.meta|node:path/);
    expect(stdio).toContain("describe.m3('shipping', () => {");
    expect(stdio).toContain('expect(tools.length).toBeGreaterThan(0);');
    const http = renderStarter('s', { transport: 'http', url: 'http://127.0.0.1:3000/mcp' }, 'js');
    expect(http).toContain("const { HTTPServer } = require('sf-m3');");
    expect(http).toContain("new HTTPServer({ name: 'server', url: 'http://127.0.0.1:3000/mcp' })");
    const none = renderStarter('s', null, 'ts');
    expect(none).toContain("describe.m3.skip('s', () => {");
    expect(none).toContain("args: ['path/to/your/server.js'],");
  });
});
