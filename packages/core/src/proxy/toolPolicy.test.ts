import { ModelValidationError } from '../errors/M3Error';
import { isToolAllowed, normalizeToolPolicy, parseQualifiedToolName } from './toolPolicy';

describe('normalizeToolPolicy', () => {
  test('omitted tools allows every tool', () => {
    const policy = normalizeToolPolicy('shipping', undefined);
    expect(policy).toEqual({ mode: 'allow_all' });
    expect(isToolAllowed(policy, 'quote')).toBe(true);
    expect(isToolAllowed(policy, null)).toBe(true);
  });

  test('[] denies every tool', () => {
    const policy = normalizeToolPolicy('shipping', []);
    expect(policy).toEqual({ mode: 'allowlist', tools: [] });
    expect(isToolAllowed(policy, 'quote')).toBe(false);
  });

  test('qualified names allow only that server’s listed tools', () => {
    const tools = ['shipping:quote', 'catalog:search', 'shipping:track', 'shipping:quote'];
    expect(normalizeToolPolicy('shipping', tools)).toEqual({ mode: 'allowlist', tools: ['quote', 'track'] });
    const catalog = normalizeToolPolicy('catalog', tools);
    expect(isToolAllowed(catalog, 'search')).toBe(true);
    expect(isToolAllowed(catalog, 'quote')).toBe(false);
    expect(normalizeToolPolicy('warehouse', tools)).toEqual({ mode: 'allowlist', tools: [] });
  });

  test('a tool name may contain colons after the server', () => {
    expect(parseQualifiedToolName('srv:ns:tool')).toEqual({ server: 'srv', tool: 'ns:tool' });
  });

  test('unqualified or malformed names are refused with the fix', () => {
    for (const bad of ['quote', ':quote', 'shipping:']) {
      expect(() => normalizeToolPolicy('shipping', [bad])).toThrow(ModelValidationError);
    }
    expect(() => normalizeToolPolicy('shipping', ['quote'])).toThrow("write it as '<server>:<tool>'");
  });

  test('with known servers, a name for an absent server is refused', () => {
    expect(() => normalizeToolPolicy('shipping', ['shiping:quote'], ['shipping'])).toThrow(
      "names server 'shiping', which is not one of this test's servers (shipping)",
    );
  });
});
