import { m3Matchers } from './index';
import {
  closedClient,
  editedView,
  EXEC_ID,
  executionOf,
  failureOf,
  openClient,
  trace,
  turnOf,
  weatherTrace,
} from './matchers.testkit';

expect.extend(m3Matchers);

describe('toHaveToolCall', () => {
  const t = weatherTrace();
  const view = t.view();

  test('passes for a call that happened, on every kind of subject', () => {
    for (const subject of [view, t, executionOf(t), closedClient(t), view.toJSON()]) {
      expect(subject).toHaveToolCall('get_weather');
    }
    expect(view).toHaveToolCall();
    expect(view).toHaveToolCall({ server: 'docs' });
  });

  test('fails for a call that did not happen, listing the calls that did', () => {
    const message = failureOf(() => expect(view).toHaveToolCall('get_forecast'));
    expect(message).toContain('Calls that happened (wire evidence):');
    expect(message).toContain(
      '1. get_weather on weather (success 40ms) args={"city":"Oslo","days":3,"units":["C","mm"]}',
    );
    expect(message).toContain('3. search on docs (tool_error 5ms) args={"q":"rain"}');
    expect(message.endsWith(`executionId=${EXEC_ID}`)).toBe(true);
    expect(message).toMatchSnapshot();
  });

  test('.not passes when no call matches and fails listing the matching calls', () => {
    expect(view).not.toHaveToolCall('delete_everything');
    const message = failureOf(() =>
      expect(view).not.toHaveToolCall('get_weather', { arguments: { city: 'Oslo', days: 3, units: ['C', 'mm'] } }),
    );
    expect(message).toContain('Expected: no call to get_weather');
    expect(message).toContain('Matching calls:');
    expect(message).toMatchSnapshot();
  });

  describe('arguments', () => {
    test('exact by default: every key must be there and no more', () => {
      expect(view).toHaveToolCall('get_weather', { arguments: { city: 'Oslo', days: 3, units: ['C', 'mm'] } });
      expect(view).not.toHaveToolCall('get_weather', { arguments: { city: 'Oslo' } });
    });
    test('argumentsPartial allows extra keys', () => {
      expect(view).toHaveToolCall('get_weather', { arguments: { city: 'Oslo' }, argumentsPartial: true });
      expect(view).not.toHaveToolCall('get_weather', { arguments: { city: 'Paris' }, argumentsPartial: true });
    });
    test('argumentsUnordered compares arrays as multisets', () => {
      const args = { city: 'Oslo', days: 3, units: ['mm', 'C'] };
      expect(view).not.toHaveToolCall('get_weather', { arguments: args });
      expect(view).toHaveToolCall('get_weather', { arguments: args, argumentsUnordered: true });
    });
    test('argumentsRegex treats expected strings as whole-value patterns', () => {
      expect(view).toHaveToolCall('get_weather', {
        arguments: { city: 'O.*' },
        argumentsPartial: true,
        argumentsRegex: true,
      });
      expect(view).not.toHaveToolCall('get_weather', {
        arguments: { city: 'Os' },
        argumentsPartial: true,
        argumentsRegex: true,
      });
    });
    test('argumentsTolerance compares numbers within a bound', () => {
      expect(view).not.toHaveToolCall('get_weather', { arguments: { days: 3.4 }, argumentsPartial: true });
      expect(view).toHaveToolCall('get_weather', {
        arguments: { days: 3.4 },
        argumentsPartial: true,
        argumentsTolerance: 0.5,
      });
      expect(view).not.toHaveToolCall('get_weather', {
        arguments: { days: 3.6 },
        argumentsPartial: true,
        argumentsTolerance: 0.5,
      });
    });
    test('Jest asymmetric matchers and RegExp values work inside arguments', () => {
      expect(view).toHaveToolCall('get_weather', {
        arguments: { city: expect.any(String), days: 3, units: expect.arrayContaining(['mm']) },
      });
      expect(view).toHaveToolCall('get_weather', { arguments: { city: /^Ber/ }, argumentsPartial: true });
    });
    test('argumentPredicate receives the observed arguments', () => {
      expect(view).toHaveToolCall('get_weather', { argumentPredicate: (a) => (a as { days: number }).days > 2 });
      expect(view).not.toHaveToolCall('get_weather', { argumentPredicate: (a) => (a as { days: number }).days > 5 });
    });
    test('a throwing predicate fails the assertion in both directions, naming only the error type', () => {
      const boom = () => {
        throw new TypeError('secret-ish detail');
      };
      const positive = failureOf(() => expect(view).toHaveToolCall('get_weather', { argumentPredicate: boom }));
      const negative = failureOf(() => expect(view).not.toHaveToolCall('get_weather', { predicate: boom }));
      expect(positive).toContain('the argumentPredicate option threw TypeError');
      expect(negative).toContain('the predicate option threw TypeError');
      expect(positive).not.toContain('secret-ish detail');
    });
  });

  describe('result', () => {
    test('matches the result in MCP spelling; isError: false equals absent', () => {
      const sunny = { content: [{ type: 'text', text: 'sunny' }], structuredContent: { temp: 3.2 } };
      expect(view).toHaveToolCall('get_weather', { result: sunny });
      expect(view).toHaveToolCall('get_weather', { result: { ...sunny, isError: false } });
      expect(view).toHaveToolCall('get_weather', { result: { content: [{ text: 'sunny' }] }, resultPartial: true });
      expect(view).not.toHaveToolCall('get_weather', { result: { content: [{ type: 'text', text: 'sunny' }] } });
      expect(view).toHaveToolCall('search', { result: { content: [{ type: 'text', text: 'ok' }], isError: true } });
    });
  });

  test('status filters by how the call ended', () => {
    expect(view).toHaveToolCall('search', { status: 'tool_error' });
    expect(view).not.toHaveToolCall('search', { status: 'success' });
    expect(view).toHaveToolCall({ status: 'tool_error', count: 1 });
  });

  describe('counts', () => {
    test('count is exact', () => {
      expect(view).toHaveToolCall('get_weather', { count: 2 });
      const message = failureOf(() => expect(view).toHaveToolCall('get_weather', { count: 3 }));
      expect(message).toContain('Expected: exactly 3 calls to get_weather');
      expect(message).toContain('Received: 2 matching calls (3 calls in total)');
    });
    test('minCount and maxCount bound a range', () => {
      expect(view).toHaveToolCall('get_weather', { minCount: 2 });
      expect(view).toHaveToolCall('get_weather', { minCount: 1, maxCount: 2 });
      expect(view).not.toHaveToolCall('get_weather', { maxCount: 1 });
      expect(failureOf(() => expect(view).toHaveToolCall('get_weather', { minCount: 3, maxCount: 5 }))).toContain(
        'Expected: between 3 and 5 calls to get_weather',
      );
    });
    test('count: 0 and maxCount: 0 assert absence', () => {
      expect(view).toHaveToolCall('delete_file', { count: 0 });
      expect(view).toHaveToolCall('delete_file', { maxCount: 0 });
      expect(view).not.toHaveToolCall('get_weather', { count: 0 });
    });
    test('bad counts are usage errors', () => {
      expect(() => expect(view).toHaveToolCall('x', { count: -1 })).toThrow(
        'options.count must be a non-negative integer',
      );
      expect(() => expect(view).toHaveToolCall('x', { count: 1.5 })).toThrow('non-negative integer');
      expect(() => expect(view).toHaveToolCall('x', { count: 1, minCount: 1 })).toThrow('cannot be combined');
      expect(() => expect(view).toHaveToolCall('x', { minCount: 3, maxCount: 1 })).toThrow(
        'minCount cannot exceed maxCount',
      );
    });
  });

  describe('latency bounds', () => {
    test('minLatencyMs and maxLatencyMs use the observed latency', () => {
      expect(view).toHaveToolCall('get_weather', { maxLatencyMs: 50, count: 1 });
      expect(view).toHaveToolCall('get_weather', { minLatencyMs: 100, count: 1 });
      expect(view).toHaveToolCall('get_weather', { minLatencyMs: 10, maxLatencyMs: 300, count: 2 });
      expect(view).not.toHaveToolCall('get_weather', { minLatencyMs: 1000 });
    });
    test('a call without observed latency never satisfies a latency bound', () => {
      const data = editedView(t, (entry) => {
        const wire = entry.wire as { value: { latencyMs: number | null } };
        wire.value.latencyMs = null;
      });
      expect(data).toHaveToolCall('get_weather', { count: 2 });
      expect(data).not.toHaveToolCall('get_weather', { maxLatencyMs: 100000 });
    });
    test('bad latencies are usage errors', () => {
      expect(() => expect(view).toHaveToolCall('x', { minLatencyMs: -1 })).toThrow('finite non-negative number');
      expect(() => expect(view).toHaveToolCall('x', { minLatencyMs: 5, maxLatencyMs: 1 })).toThrow('cannot exceed');
    });
  });

  describe('turns', () => {
    const turned = trace({
      calls: [
        { tool: 'search', turnId: 'turn-1' },
        { tool: 'fetch', turnId: 'turn-2' },
      ],
    });
    test('the turn option narrows to one turn, by id or by TurnResult', () => {
      expect(turned.view()).toHaveToolCall('search', { turn: 'turn-1' });
      expect(turned.view()).not.toHaveToolCall('search', { turn: 'turn-2' });
      expect(turned.view()).toHaveToolCall('fetch', { turn: turnOf(turned, 'turn-2') });
    });
    test('a TurnResult subject only sees its own turn', () => {
      expect(turnOf(turned, 'turn-1')).toHaveToolCall('search');
      expect(turnOf(turned, 'turn-1')).not.toHaveToolCall('fetch');
    });
    test('a bad selector is a usage error', () => {
      expect(() => expect(turned.view()).toHaveToolCall('search', { turn: 3 as never })).toThrow(
        'options.turn must be',
      );
    });
  });

  describe('evidence', () => {
    // Wire evidence gone, the agent's report kept: what a harness-reported call looks like.
    const reportedOnly = editedView(weatherTrace(), (entry, index) => {
      if (index !== 0) return;
      entry.wire = { state: 'unavailable', value: null, reason: 'correlation_unavailable' };
      entry.reported = {
        state: 'observed',
        value: {
          providerCallId: 'p1',
          server: 'weather',
          tool: 'get_weather',
          arguments: { state: 'observed', value: { city: 'Oslo' } },
          result: { state: 'observed', value: { content: [{ type: 'text', text: 'sunny' }], isError: false } },
          status: { state: 'observed', value: 'success' },
        },
      };
    });
    test('wire is the default: reported-only calls do not count, and the message says how to include them', () => {
      expect(reportedOnly).toHaveToolCall('get_weather', { count: 1 });
      const message = failureOf(() =>
        expect(reportedOnly).toHaveToolCall('get_weather', { arguments: { city: 'Oslo' } }),
      );
      expect(message).toContain("1 more call(s) have no wire evidence; pass { evidence: 'any' }");
    });
    test("evidence: 'reported' reads the agent's report", () => {
      expect(reportedOnly).toHaveToolCall('get_weather', {
        evidence: 'reported',
        arguments: { city: 'Oslo' },
        count: 1,
      });
      expect(reportedOnly).toHaveToolCall('get_weather', {
        evidence: 'reported',
        result: { content: [{ type: 'text', text: 'sunny' }] },
        status: 'success',
      });
      expect(reportedOnly).not.toHaveToolCall('get_weather', { evidence: 'reported', minLatencyMs: 0 });
    });
    test("evidence: 'any' reads the resolved fields of every call", () => {
      expect(reportedOnly).toHaveToolCall('get_weather', { evidence: 'any', count: 2 });
    });
    test('an unknown evidence source is a usage error', () => {
      expect(() => expect(view).toHaveToolCall('x', { evidence: 'guess' as never })).toThrow(
        "options.evidence must be one of 'wire'",
      );
    });
  });

  test('predicate receives the call with its entry', () => {
    expect(view).toHaveToolCall('get_weather', {
      predicate: (call) => call.server === 'weather' && call.entry.kind === 'tool_call',
    });
    expect(view).toHaveToolCall({ predicate: (call) => call.latencyMs === 200 && call.status === 'success', count: 1 });
  });

  describe('ambiguity guard', () => {
    const twoServers = trace({
      calls: [
        { tool: 'search', server: 'web' },
        { tool: 'search', server: 'docs' },
      ],
    });
    test('a tool seen on two servers without server fails, in both directions', () => {
      const positive = failureOf(() => expect(twoServers).toHaveToolCall('search'));
      const negative = failureOf(() => expect(twoServers).not.toHaveToolCall('search'));
      expect(positive).toContain('ambiguous serverless tool assertion: search was seen on 2 servers (docs, web)');
      expect(negative).toContain('ambiguous serverless tool assertion');
      expect(positive).toMatchSnapshot();
    });
    test('a tool two servers listed at discovery is ambiguous even if only one was called', () => {
      const data = JSON.parse(
        JSON.stringify(trace({ server: 'web', calls: [{ tool: 'search' }, { tool: 'ping', server: 'docs' }] }).view()),
      );
      for (const entry of data.timeline) {
        if (entry.kind === 'initialization') entry.tools = { state: 'observed', value: ['search', 'ping'] };
      }
      expect(failureOf(() => expect(data).toHaveToolCall('search'))).toContain('was seen on 2 servers (docs, web)');
      expect(data).toHaveToolCall('search', { server: 'web' });
    });
    test('naming the server resolves it', () => {
      expect(twoServers).toHaveToolCall('search', { server: 'web', count: 1 });
      expect(twoServers).not.toHaveToolCall('search', { server: 'files' });
    });
  });

  describe('negative-boundary rule', () => {
    test('a negative assertion on an open client fails: the trace is not finalized', () => {
      const client = openClient();
      const message = failureOf(() => expect(client).not.toHaveToolCall('delete_file'));
      expect(message).toContain('a negative assertion needs a finalized subject');
      expect(message).toContain('reason=TraceNotFinalized');
      expect(failureOf(() => expect(client).toHaveToolCall('delete_file', { count: 0 }))).toContain(
        'a negative assertion needs a finalized subject',
      );
      expect(message).toMatchSnapshot();
    });
    test('a positive assertion on an open client fails too, explaining why', () => {
      expect(failureOf(() => expect(openClient()).toHaveToolCall('x'))).toContain('finalized trace unavailable');
    });
    test('an unfinalized TraceResult is refused the same way', () => {
      expect(failureOf(() => expect(openClient().trace).not.toHaveToolCall('x'))).toContain(
        'needs a finalized subject',
      );
    });
  });

  test('a subject with no trace is a usage error', () => {
    expect(() => expect('text').toHaveToolCall('x')).toThrow('received value must be a TraceView');
    expect(() => expect({ content: [] }).not.toHaveToolCall('x')).toThrow('received value must be a TraceView');
  });

  test('unknown options are usage errors (typos do not pass silently)', () => {
    expect(() => expect(view).toHaveToolCall('x', { args: {} } as never)).toThrow('unknown option "args"');
  });
});
