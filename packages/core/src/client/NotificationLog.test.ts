import { OperationCancelled, OperationTimeout } from '../errors';
import { Redactor } from '../redaction/Redactor';
import { TraceRecorder } from '../trace/TraceRecorder';
import { NotificationLog } from './NotificationLog';

const CANARY = 's3cr3t-notification-canary';

/** A recorder feeding a fresh log, and a way to record one server notification on it. */
function setUp(): { log: NotificationLog; notify: (method: string, params?: object) => void; recorder: TraceRecorder } {
  const recorder = new TraceRecorder({ executionId: 'exec-notify', redactor: new Redactor([CANARY]) });
  const log = new NotificationLog();
  recorder.subscribe((event) => log.observe(event));
  const notify = (method: string, params?: object): void => {
    recorder.record('mcp.notification', {
      direction: 'server_to_client',
      payload: { method, params: params ?? null },
    });
  };
  return { log, notify, recorder };
}

test('lists server notifications in received order with redacted params, leaving out the listen acknowledgement', () => {
  const { log, notify, recorder } = setUp();
  notify('notifications/subscriptions/acknowledged', {});
  notify('notifications/tools/list_changed');
  recorder.record('mcp.notification', {
    direction: 'client_to_server',
    payload: { method: 'notifications/initialized', params: null },
  });
  notify('notifications/message', { level: 'info', data: `token ${CANARY}` });
  expect(log.notifications.map((n) => [n.method, n.order])).toEqual([
    ['notifications/tools/list_changed', 1],
    ['notifications/message', 2],
  ]);
  expect(JSON.stringify(log.notifications)).not.toContain(CANARY);
  expect(log.notifications[0]!.eventId).toMatch(/^evt-exec-notify-/);
});

test('a wait takes the oldest unclaimed notification of its method, then waits for the next one', async () => {
  const { log, notify } = setUp();
  notify('notifications/tools/list_changed');
  notify('notifications/resources/updated', { uri: 'memory://a' });
  const first = await log.waitFor('notifications/tools/list_changed', 1000, 'srv');
  expect(first.order).toBe(1);
  const second = log.waitFor('notifications/tools/list_changed', 1000, 'srv');
  notify('notifications/tools/list_changed');
  expect((await second).order).toBe(3);
  expect((await log.waitFor('notifications/resources/updated', 1000, 'srv')).params).toEqual({ uri: 'memory://a' });
});

test('two pending waits of one method get two notifications, in order', async () => {
  const { log, notify } = setUp();
  const a = log.waitFor('notifications/prompts/list_changed', 1000, 'srv');
  const b = log.waitFor('notifications/prompts/list_changed', 1000, 'srv');
  notify('notifications/prompts/list_changed');
  notify('notifications/prompts/list_changed');
  expect([(await a).order, (await b).order]).toEqual([1, 2]);
});

test('a wait with nothing arriving rejects with OperationTimeout naming the method, what came and the listen option', async () => {
  const { log, notify } = setUp();
  notify('notifications/message', { level: 'info', data: 'x' });
  const waiting = log.waitFor('notifications/resources/updated', 20, 'srv');
  await expect(waiting).rejects.toThrow(OperationTimeout);
  await expect(waiting).rejects.toThrow(
    /no notifications\/resources\/updated notification arrived from srv within 20 ms \(received so far: notifications\/message\)\. Call client\.listen\(\{ resourceUris: \['<uri>'\] \}\)/,
  );
});

test('cancelWaits rejects pending waits with OperationCancelled', async () => {
  const { log } = setUp();
  const waiting = log.waitFor('notifications/tools/list_changed', 10_000, 'srv');
  log.cancelWaits('srv');
  await expect(waiting).rejects.toThrow(OperationCancelled);
});
