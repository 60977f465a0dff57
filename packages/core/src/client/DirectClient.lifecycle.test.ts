/// <reference lib="esnext.disposable" />
import { createExampleServer } from '@sf-m3/example-servers';
import { ClientNotReady, KitClosed, M3Error, OperationCancelled } from '../errors';
import { InProcessServer } from '../servers/InProcessServer';
import { createFeatureServer, rejection, slowCallInFlight, useKitPerTest } from '@sf-m3/test-utils/client';

const example = new InProcessServer({ name: 'example', factory: createExampleServer });
const feature = new InProcessServer({ name: 'feature', factory: createFeatureServer });

const kit = useKitPerTest({ suiteName: 'direct-client', caseId: 'case-1' });

describe('close and the cleanup boundary', () => {
  test('close while a call is in flight cancels it', async () => {
    const client = await kit().direct(feature).connect();
    const { call } = await slowCallInFlight(client, { ms: 10_000, steps: 1 });
    await client.close();
    const error = await call;
    expect(error).toBeInstanceOf(OperationCancelled);
    expect(error.message).toMatch(/cancelled/);
    expect(client.result?.snapshot.outcome).toBe('cancelled');
    expect(client.result!.traceView.toolCalls[0]!.toolStatus).toBe('cancelled');
  });

  test('kit.close closes a forgotten client and cancels its call', async () => {
    const forgotten = await kit().direct(feature).connect();
    const { call } = await slowCallInFlight(forgotten, { ms: 10_000, steps: 1 });
    await kit().close();
    expect(await call).toBeInstanceOf(OperationCancelled);
    expect(forgotten.closed).toBe(true);
    expect(forgotten.result?.snapshot.outcome).toBe('cancelled');
    expect(() => kit().direct(feature)).toThrow(KitClosed);
    await expect(kit().getTrace(forgotten.executionId)).rejects.toThrow(KitClosed);
  });

  test('every operation after close throws an M3Error that says closed', async () => {
    const client = await kit()
      .direct(example, { onRoots: () => [] })
      .connect();
    await client.close();
    await client.close();
    const operations: Array<() => Promise<unknown>> = [
      () => client.listTools(),
      () => client.listAllTools(),
      () => client.listResources(),
      () => client.listAllResources(),
      () => client.listResourceTemplates(),
      () => client.listAllResourceTemplates(),
      () => client.listPrompts(),
      () => client.listAllPrompts(),
      () => client.readResource('memory://testing-guide'),
      () => client.getPrompt('review_order'),
      () => client.callTool('always_fails'),
      () => client.complete({ type: 'ref/prompt', name: 'review_order' }, { name: 'order_id', value: '' }),
      () => client.subscribeResource('memory://x'),
      () => client.unsubscribeResource('memory://x'),
      () => client.ping(),
      () => client.setLoggingLevel('info'),
      () => client.sendNotification({ method: 'notifications/progress' }),
      () => client.sendRootsListChanged(),
      () => client.connect(),
      () => client.initialize(),
    ];
    for (const operation of operations) {
      const error = await rejection(operation());
      expect(error).toBeInstanceOf(M3Error);
      expect(error.message).toMatch(/closed/);
    }
    expect(client.result?.snapshot.outcome).toBe('completed');
  });

  test('operations before connect say how to connect', async () => {
    const client = kit().direct(example);
    await expect(client.ping()).rejects.toThrow(/not connected: await client.connect\(\)/);
    expect(() => client.trace).toThrow(/not connected/);
    await client.close();
    // Closed before connecting: no execution exists, so there is no result to read.
    expect(() => client.result).toThrow(ClientNotReady);
    expect(() => client.result).toThrow(/closed before it connected/);
    expect(() => client.finalTrace).toThrow(ClientNotReady);
    expect(() => client.initialization).toThrow(ClientNotReady);
    expect(kit().executionIds()).toEqual([]);
  });

  test('initialization, result and finalTrace throw ClientNotReady until they exist, then keep their values', async () => {
    const client = kit().direct(example);
    expect(() => client.initialization).toThrow(ClientNotReady);
    expect(() => client.initialization).toThrow(
      /client\.initialization is not available yet: await client\.connect\(\)/,
    );
    expect(() => client.result).toThrow(/client\.result is set once the client is closed: await client\.close\(\)/);
    await client.connect();
    expect(client.initialization.serverInfo.name).toBeTruthy();
    expect(await client.initialize()).toBe(client.initialization);
    const early = (() => {
      try {
        return client.finalTrace;
      } catch (error) {
        return error as ClientNotReady;
      }
    })();
    expect(early).toBeInstanceOf(ClientNotReady);
    expect(early).toMatchObject({
      code: 'client_not_ready',
      details: { property: 'finalTrace', state: 'open', executionId: client.executionId },
    });
    expect(() => client.result).toThrow(ClientNotReady);
    const initialization = client.initialization;
    await client.close();
    expect(client.result.snapshot.outcome).toBe('completed');
    expect(client.finalTrace.finalized).toBe(true);
    expect(client.result.executionId).toBe(client.executionId);
    expect(client.initialization).toBe(initialization);
  });

  test('await using closes the client at the end of the scope', async () => {
    let executionId: string | undefined;
    {
      await using client = await kit().direct(example).connect();
      executionId = client.executionId;
      await client.ping();
    }
    const view = await kit().getTraceView(executionId as string);
    expect(view.outcome).toBe('completed');
  });
});

describe('closing while connecting', () => {
  /** Resolves when the server factory has been entered: the connect is under way. */
  let factoryEntered: Promise<void>;
  let enterFactory: () => void;
  /** The factory answers only once the test releases it (after its close), never by a clock. */
  let releaseFactory: () => void;
  beforeEach(() => {
    factoryEntered = new Promise((resolve) => (enterFactory = resolve));
  });
  afterEach(() => releaseFactory?.());
  const slowStart = new InProcessServer({
    name: 'slow-start',
    factory: async () => {
      enterFactory();
      await new Promise<void>((resolve) => (releaseFactory = resolve));
      return createExampleServer();
    },
  });

  test('close() during connect cancels it and saves a cancelled execution', async () => {
    const client = kit().direct(slowStart);
    const connecting = rejection(client.connect());
    await factoryEntered;
    // close() is under way before the factory answers; the connect then finds the client closing.
    const closing = client.close();
    releaseFactory();
    await closing;
    const error = await connecting;
    expect(error).toBeInstanceOf(OperationCancelled);
    expect(client.result?.snapshot.outcome).toBe('cancelled');
    expect((await kit().store.getExecution(client.executionId)).outcome).toBe('cancelled');
    await expect(client.ping()).rejects.toThrow(/closed/);
    expect(() => client.initialization).toThrow(/closed before initialize completed/);
  });

  test('kit.close() during connect leaves nothing open', async () => {
    const client = kit().direct(slowStart);
    const connecting = rejection(client.connect());
    await kit().close();
    expect(await connecting).toBeInstanceOf(OperationCancelled);
    expect(client.closed).toBe(true);
  });
});
