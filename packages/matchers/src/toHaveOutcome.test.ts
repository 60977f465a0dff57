import { m3Matchers } from './index';
import { closedClient, EXEC_ID, executionOf, failureOf, openClient, trace, turnOf } from './matchers.testkit';

expect.extend(m3Matchers);

describe('execution matchers', () => {
  const completed = executionOf(trace());
  const failedTrace = trace({ outcome: 'failed' });
  const failed = executionOf(failedTrace, {
    error: { code: 'transport_error', message: 'the connection broke', details: { server: 'x' } },
  });

  describe('toBeCompleted / toHaveOutcome', () => {
    test('read the snapshot of results and closed clients, the outcome of turns and views', () => {
      for (const subject of [completed, closedClient(trace()), trace(), trace().view(), turnOf(trace(), 'turn-1')]) {
        expect(subject).toBeCompleted();
        expect(subject).toHaveOutcome('completed');
      }
      expect(failed).not.toBeCompleted();
      expect(failed).toHaveOutcome('failed');
      expect(failedTrace.view()).toHaveOutcome('failed');
    });
    test('failure messages name the outcome and the error', () => {
      const message = failureOf(() => expect(failed).toBeCompleted());
      expect(message).toContain('Received outcome: "failed"');
      expect(message).toContain('Error: transport_error the connection broke');
      expect(message).toMatchSnapshot();
      expect(failureOf(() => expect(completed).not.toHaveOutcome('completed'))).toMatchSnapshot();
    });
    test('an open client has no outcome yet', () => {
      expect(failureOf(() => expect(openClient()).toBeCompleted())).toContain(
        'none yet (the execution has not finished)',
      );
    });
    test('usage errors', () => {
      expect(() => expect(completed).toHaveOutcome('done' as never)).toThrow(
        'expected outcome must be one of completed',
      );
      expect(() => expect('x').toBeCompleted()).toThrow('received value must be an ExecutionResult');
    });
  });

  describe('toHaveLifecycle', () => {
    test('reads the snapshot lifecycle', () => {
      expect(completed).toHaveLifecycle('finished');
      expect(closedClient(trace())).toHaveLifecycle('finished');
      expect(completed).not.toHaveLifecycle('running_turn');
      expect(failureOf(() => expect(completed).toHaveLifecycle('idle'))).toMatchSnapshot();
      expect(() => expect(completed).toHaveLifecycle('done' as never)).toThrow('expected lifecycle must be one of');
    });
  });

  describe('toHaveError', () => {
    test('any error, or one matching a code, message text, RegExp or partial object', () => {
      expect(failed).toHaveError();
      expect(failed).toHaveError('transport_error');
      expect(failed).toHaveError('connection broke');
      expect(failed).toHaveError(/broke$/);
      expect(failed).toHaveError({ code: 'transport_error', details: { server: 'x' } });
      expect(failed).not.toHaveError('timeout');
      expect(failed).not.toHaveError({ code: 'timeout' });
      expect(completed).not.toHaveError();
    });
    test('failure messages', () => {
      const message = failureOf(() => expect(completed).toHaveError('timeout'));
      expect(message).toContain('Received: no error');
      expect(message.endsWith(`executionId=${EXEC_ID}`)).toBe(true);
      expect(failureOf(() => expect(failed).not.toHaveError())).toMatchSnapshot();
    });
  });
});
