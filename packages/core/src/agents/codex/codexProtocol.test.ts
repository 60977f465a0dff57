import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv, { type ValidateFunction } from 'ajv';
import { MCPTestKit } from '../../kit/MCPTestKit';
import { holdNextDeadline, sessionEventSeen } from '../heldDeadline.testkit';
import { ensureBuilt, example, fakeCodexAgent, harnessFrames } from '@sf-m3/test-utils/agents';

// The app-server types of codex-cli 0.171.0 (pin-codex-schema.js), for the messages the harness uses.
interface PinnedSchema {
  codexVersion: string;
  clientRequests: Record<string, { params: string; result: string }>;
  clientNotifications: string[];
  serverNotifications: Record<string, string>;
  serverRequests: Record<string, { params: string; result: string }>;
  definitions: Record<string, unknown>;
}
const FIXTURES = join(__dirname, '__fixtures__');
const pinned = JSON.parse(readFileSync(join(FIXTURES, 'codex-app-server.schema.json'), 'utf8')) as PinnedSchema;
const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
ajv.addSchema({ $id: 'codex', definitions: pinned.definitions });
const validators = new Map<string, ValidateFunction>();
const validator = (type: string): ValidateFunction => {
  let v = validators.get(type);
  if (v === undefined) {
    v = ajv.compile({ $ref: `codex#/definitions/${type}` });
    validators.set(type, v);
  }
  return v;
};

type Frame = Record<string, unknown>;
type Direction = 'sdk_to_harness' | 'harness_to_sdk';

/**
 * Checks each frame of a conversation against the pinned types: requests and notifications by
 * method, answers by the method of the request they answer. Returns the problems, and the methods
 * it checked (so a test can say which messages it covered). A method the harness uses but the pin
 * does not name is a problem too.
 */
function check(frames: ReadonlyArray<{ direction: Direction; frame: Frame }>): {
  problems: string[];
  seen: Set<string>;
} {
  const problems: string[] = [];
  const seen = new Set<string>();
  const asked = new Map<string, string>(); // `${direction}:${id}` of a request -> result type
  const validate = (type: string | undefined, value: unknown, what: string) => {
    if (type === undefined) return problems.push(`${what}: not in the pinned schema`);
    const v = validator(type);
    if (!v(value)) problems.push(`${what} (${type}): ${ajv.errorsText(v.errors)}`);
    seen.add(what.split(' ')[0]!);
  };
  for (const { direction, frame } of frames) {
    const { id, method } = frame;
    const key = (d: Direction) => `${d}:${String(id)}`;
    if (typeof method === 'string' && id !== undefined) {
      const pair = direction === 'sdk_to_harness' ? pinned.clientRequests[method] : pinned.serverRequests[method];
      validate(pair?.params, frame.params, `${method} request`);
      if (pair !== undefined) asked.set(key(direction), pair.result);
    } else if (typeof method === 'string') {
      if (direction === 'sdk_to_harness') {
        if (!pinned.clientNotifications.includes(method)) problems.push(`${method}: not a pinned client notification`);
        seen.add(method);
      } else if (pinned.serverNotifications[method] !== undefined) {
        validate(pinned.serverNotifications[method], frame.params, `${method} notification`);
      }
    } else {
      const other: Direction = direction === 'sdk_to_harness' ? 'harness_to_sdk' : 'sdk_to_harness';
      const result = asked.get(key(other));
      if (frame.error === undefined) validate(result, frame.result, `answer to ${String(id)}`);
    }
  }
  return { problems, seen };
}

const recordedSample = (): Array<{ direction: Direction; frame: Frame }> =>
  readFileSync(join(FIXTURES, `codex-${pinned.codexVersion.split(' ').pop()}-app-server.ndjson`), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as { direction: Direction; frame: Frame });

beforeAll(ensureBuilt, 120_000);

describe('the codex app-server protocol pinned from codex-cli 0.171.0', () => {
  it('the recorded real session conforms to the pinned types', () => {
    const { problems, seen } = check(recordedSample());
    expect(problems).toEqual([]);
    for (const method of ['initialize', 'thread/start', 'turn/start', 'item/completed', 'turn/completed']) {
      expect(seen).toContain(method);
    }
    expect(seen).toContain('thread/tokenUsage/updated');
    expect(seen).toContain('mcpServer/elicitation/request');
  });

  it('the pin catches a frame that breaks its type', () => {
    const broken = recordedSample().map(({ direction, frame }) =>
      frame.method === 'turn/start'
        ? { direction, frame: { ...frame, params: { input: 'text' } } }
        : { direction, frame },
    );
    expect(check(broken).problems.some((p) => p.startsWith('turn/start request'))).toBe(true);
  });

  it("the driver's requests and answers and the fixture's frames conform to the pinned types", async () => {
    const kit = new MCPTestKit();
    try {
      // The third turn stalls until the deadline (fired once it streamed), so the driver sends turn/interrupt too.
      const deadline = holdNextDeadline(4_000);
      const session = await fakeCodexAgent(kit).session({ servers: [example], timeoutMs: 4_000 });
      await session.send(
        'ask-approval\ncall example:shipping_quote {"weight_kg":2,"zone":"local"}\nreason: price\nhidden-reasoning',
      );
      await session.send('fail: refused');
      const stalled = session.send('stall');
      await sessionEventSeen(
        session,
        (e) => e.kind === 'raw.frame' && String(e.payload.preview).includes('"delta":"thinking"'),
      );
      deadline.fire();
      await stalled;
      const view = (await session.close()).traceView;
      // Frames in the order they were recorded (both directions interleaved).
      const frames = view.rawMessages
        .filter((m) => m.source === 'harness')
        .map((m) => ({ direction: m.direction as Direction, frame: JSON.parse(String(m.preview.value)) as Frame }));
      expect(harnessFrames(view, 'sdk_to_harness').length).toBeGreaterThan(5);
      const { problems, seen } = check(frames);
      expect(problems).toEqual([]);
      for (const method of [
        'initialize',
        'initialized',
        'thread/start',
        'turn/start',
        'turn/interrupt',
        'mcpServer/elicitation/request',
        'item/started',
        'item/completed',
        'item/agentMessage/delta',
        'thread/tokenUsage/updated',
        'mcpServer/startupStatus/updated',
        'turn/completed',
        'answer',
      ]) {
        expect(seen).toContain(method);
      }
    } finally {
      await kit.close();
    }
  });
});
