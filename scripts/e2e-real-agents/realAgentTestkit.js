// What the opt-in real-agent tests share: a fresh kit and fake model per test, following the
// processes a run starts (the ones its trace records as process.started, and their descendants,
// sampled while they live) so a test can check that none is left, sending a session's turns while
// watching them, waiting for the fake model's first request, and reading the amounts the example
// server's shipping_quote results carry back to the model.
'use strict';

const { MCPTestKit } = require('../../index.js');
const { descendantsOf, isAlive } = require('../../packages/core/dist/transport/processTree.js');

/** Adds the pid of a `process.started` event to `pids`; other events are passed over. */
function noteStartedProcess(pids, event) {
  if (event.kind === 'process.started' && typeof event.payload.pid === 'number') pids.add(event.payload.pid);
}

/** Adds the descendants (alive now) of every pid in `pids`. */
function addDescendants(pids) {
  for (const pid of [...pids]) for (const child of descendantsOf(pid)) pids.add(child);
}

/** The pids of `pids` still alive: a test expects none once the session has closed. */
function alivePids(pids) {
  return [...pids].filter(isAlive);
}

/**
 * Follows a session's trace from its start: the pids of the processes it records, their
 * descendants sampled every `intervalMs` until `stopSampling()`. `collect()` samples now, `stop()`
 * ends the following, `alive()` lists the pids still alive.
 */
function watchSessionProcesses(session, intervalMs = 100) {
  const pids = new Set();
  const note = (event) => noteStartedProcess(pids, event);
  const { past, stop } = session.follow(note);
  past.forEach(note);
  const sampler = setInterval(() => addDescendants(pids), intervalMs);
  return {
    pids,
    collect: () => addDescendants(pids),
    stopSampling: () => clearInterval(sampler),
    stop,
    alive: () => alivePids(pids),
  };
}

/**
 * Sends `prompts` in order in a session whose processes are watched (sampled after each turn too),
 * then closes it. Resolves with the turns, the closed session's result and the processes seen.
 */
async function sendWatched(session, prompts, intervalMs = 100) {
  const processes = watchSessionProcesses(session, intervalMs);
  const turns = [];
  try {
    for (const prompt of prompts) {
      turns.push(await session.send(prompt));
      processes.collect();
    }
  } finally {
    processes.stopSampling();
  }
  const result = await session.close();
  processes.stop();
  return { turns, result, processes };
}

/**
 * Registers, in the calling describe block, a fresh fake model (`makeModel()`, started) and a
 * fresh kit for each test, both closed after it. The returned object holds the current ones.
 */
function useKitAndFakeModel(makeModel) {
  const env = { fake: undefined, kit: undefined };
  beforeEach(async () => {
    env.fake = makeModel();
    await env.fake.start();
    env.kit = new MCPTestKit();
  });
  afterEach(async () => {
    await env.kit?.close();
    await env.fake?.close();
  });
  return env;
}

/**
 * Reads a submitted run's events, noting the pids of the processes it starts, until `done(event,
 * pids)` says so; resolves with the pids seen.
 */
async function processesUntil(handle, done) {
  const pids = new Set();
  for await (const event of handle.events()) {
    noteStartedProcess(pids, event);
    if (done(event, pids)) break;
  }
  return pids;
}

/** Resolves once the fake model has had its first request (checked every `pollMs`). */
async function untilModelRequested(fake, pollMs) {
  while (fake.modelRequests.length === 0) await new Promise((r) => setTimeout(r, pollMs));
}

/** Every `"amount": N` in the tool results of the request's last message, in order, as strings. */
function toolResultAmounts(request) {
  const text = request.messages
    .at(-1)
    .toolResults.map((r) => r.text)
    .join('\n');
  return [...text.matchAll(/"amount"\s*:\s*([\d.]+)/g)].map((m) => m[1]);
}

module.exports = {
  noteStartedProcess,
  addDescendants,
  alivePids,
  watchSessionProcesses,
  sendWatched,
  useKitAndFakeModel,
  processesUntil,
  untilModelRequested,
  toolResultAmounts,
};
