import { m3Matchers } from './index';
import { closedClient, failureOf, openClient, trace } from './matchers.testkit';

expect.extend(m3Matchers);

describe('initialization matchers', () => {
  const stdio = trace({ capabilities: { tools: {}, resources: { subscribe: true } } });
  const http = trace({ transport: 'http', protocolVersion: '2025-06-18' });

  test('toHaveProtocolVersion reads the observed initialization', () => {
    expect(stdio).toHaveProtocolVersion('2025-11-25');
    expect(closedClient(http)).toHaveProtocolVersion('2025-06-18');
    expect(stdio).not.toHaveProtocolVersion('2024-11-05');
    expect(failureOf(() => expect(stdio).toHaveProtocolVersion('2024-11-05'))).toMatchSnapshot();
  });

  test('toHaveTransport reads the observed transport', () => {
    expect(stdio).toHaveTransport('stdio');
    expect(http.view()).toHaveTransport('http');
    expect(stdio).not.toHaveTransport('http');
    expect(failureOf(() => expect(stdio).not.toHaveTransport('stdio'))).toContain('Expected transport: not "stdio"');
  });

  test('toHaveCapability checks the declared capabilities', () => {
    expect(stdio).toHaveCapability('resources');
    expect(stdio).not.toHaveCapability('prompts');
    expect(failureOf(() => expect(stdio).toHaveCapability('prompts'))).toContain(
      'Received capability: ["tools", "resources"]',
    );
  });

  test('a live client answers from its initialization', () => {
    expect(openClient()).toHaveProtocolVersion('2025-11-25');
    expect(openClient()).toHaveCapability('tools');
  });

  test('subjects without a trace or initialization are usage errors; expected must be a string', () => {
    expect(() => expect(42).toHaveTransport('stdio')).toThrow('received value must be a TraceView');
    expect(() => expect(stdio).toHaveCapability('' as never)).toThrow('expected value must be a non-empty string');
  });
});
