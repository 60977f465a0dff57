import { ModelValidationError } from '../errors';
import { HTTPServer } from './HTTPServer';
import { InProcessServer } from './InProcessServer';
import { isModernRevision, PROTOCOL_SETTINGS, validateProtocolSetting } from './protocolSetting';
import { StdioServer } from './StdioServer';

describe('protocol setting', () => {
  it('defaults to auto on every server definition', () => {
    expect(new StdioServer({ name: 's', command: 'node' }).protocol).toBe('auto');
    expect(new HTTPServer({ name: 'h', url: 'http://127.0.0.1:1/mcp' }).protocol).toBe('auto');
    expect(new InProcessServer({ name: 'i', factory: () => ({}) as never }).protocol).toBe('auto');
  });

  it('keeps every accepted value', () => {
    for (const protocol of PROTOCOL_SETTINGS) {
      expect(new StdioServer({ name: 's', command: 'node', protocol }).protocol).toBe(protocol);
      expect(new HTTPServer({ name: 'h', url: 'http://127.0.0.1:1/mcp', protocol }).protocol).toBe(protocol);
      expect(new InProcessServer({ name: 'i', factory: () => ({}) as never, protocol }).protocol).toBe(protocol);
    }
  });

  it('refuses an unknown value with a message naming the accepted ones', () => {
    const bad = () => new StdioServer({ name: 'math', command: 'node', protocol: '2024-11-05' as never });
    expect(bad).toThrow(ModelValidationError);
    expect(bad).toThrow(/StdioServer math protocol must be one of 'auto', 'legacy', '2026-07-28'.*got "2024-11-05"/);
    expect(() => validateProtocolSetting(7, 'kit.direct')).toThrow(/kit.direct protocol must be one of/);
    expect(validateProtocolSetting(undefined, 'kit.direct')).toBeUndefined();
  });

  it('tells the stateless era from the 2025 one', () => {
    expect(isModernRevision('2026-07-28')).toBe(true);
    expect(isModernRevision('2025-11-25')).toBe(false);
  });
});
