import { MAX_PI_TOOL_NAME, piToolName, piToolNames } from './piToolNames';

describe('Pi tool names for MCP tools', () => {
  it('is mcp_<server>_<tool> when that fits and uses safe characters', () => {
    expect(piToolName('example', 'shipping_quote')).toBe('mcp_example_shipping_quote');
  });

  it('bounds long or unsafe names to a slug with a stable hash suffix', () => {
    const long = piToolName(
      'a-very-long-server-name-for-tests',
      'an_extraordinarily_long_tool_name_that_goes_on_and_on',
    );
    expect(long.length).toBeLessThanOrEqual(MAX_PI_TOOL_NAME);
    expect(long).toMatch(/^mcp_a-very-long-server-n_an_extraordinarily_l_[0-9a-f]{12}$/);
    expect(
      piToolName('a-very-long-server-name-for-tests', 'an_extraordinarily_long_tool_name_that_goes_on_and_on'),
    ).toBe(long);
    expect(piToolName('files', 'read.file')).toMatch(/^mcp_files_read_file_[0-9a-f]{12}$/);
  });

  it('gives two tools whose plain names meet different names', () => {
    const [first, second] = piToolNames([
      { server: 'a_b', tool: 'c' },
      { server: 'a', tool: 'b_c' },
    ]);
    expect(first).toBe('mcp_a_b_c');
    expect(second).toMatch(/^mcp_a_b_c_[0-9a-f]{12}$/);
  });
});
