// A tiny newline-delimited JSON-RPC server for the capture proxy tests. It logs every line it
// receives (and EOF / SIGTERM) to $FIXTURE_LOG, so tests can prove what reached the server.
'use strict';
const fs = require('node:fs');

const log = (entry) => {
  if (process.env.FIXTURE_LOG) fs.appendFileSync(process.env.FIXTURE_LOG, `${JSON.stringify(entry)}\n`);
};
const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function handle(m) {
  if (!m || typeof m !== 'object' || typeof m.method !== 'string') return undefined;
  const reply = (result) => ('id' in m ? { jsonrpc: '2.0', id: m.id, result } : undefined);
  switch (m.method) {
    case 'echo':
      return reply({ params: m.params ?? null });
    case 'tools/call':
      return reply({ content: [{ type: 'text', text: `called ${m.params.name}` }], args: m.params.arguments ?? null });
    case 'big':
      return reply({ data: 'x'.repeat(m.params.bytes) });
    case 'secret':
      return reply({ value: process.env.FIXTURE_SECRET ?? null });
    case 'stderr':
      process.stderr.write(m.params.text);
      return reply({ ok: true });
    case 'emit':
      // Writes raw bytes in separate chunks, with pauses, to split frames across reads.
      for (const chunk of m.params.chunks) {
        process.stdout.write(Buffer.from(chunk, 'base64'));
        await sleep(30);
      }
      return undefined;
    case 'flood': {
      // Writes many frames as fast as the pipe takes them, then logs that it finished.
      const frame = `${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/flood', params: { data: 'f'.repeat(m.params.frameBytes) } })}\n`;
      for (let i = 0; i < m.params.frames; i += 1) {
        if (!process.stdout.write(frame)) await new Promise((resolve) => process.stdout.once('drain', resolve));
      }
      log({ event: 'flood-done' });
      return reply({ frames: m.params.frames });
    }
    case 'hold':
      // Stops reading stdin until it gets SIGUSR2 (the test says when), so the proxy must hold
      // back the client meanwhile, however slow the machine.
      process.stdin.pause();
      {
        // A paused stdin keeps no event loop alive: this timer does, until the signal.
        const keepAlive = setInterval(() => undefined, 2 ** 30);
        process.once('SIGUSR2', () => {
          clearInterval(keepAlive);
          process.stdin.resume();
        });
      }
      log({ event: 'holding', pid: process.pid });
      return reply({ held: true });
    case 'die':
      process.stderr.write(`dying with secret ${process.env.FIXTURE_SECRET ?? ''}\n`);
      process.exit(Number(process.env.FIXTURE_DIE_CODE ?? 3));
      return undefined;
    default:
      return 'id' in m ? { jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'method not found' } } : undefined;
  }
}

async function onLine(line) {
  log({ event: 'line', text: line });
  let value;
  try {
    value = JSON.parse(line);
  } catch {
    send({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } });
    return;
  }
  if (Array.isArray(value)) {
    const out = [];
    for (const m of value) {
      const r = await handle(m);
      if (r) out.push(r);
    }
    if (out.length > 0) send(out);
    return;
  }
  const r = await handle(value);
  if (r) send(r);
}

let pending = Buffer.alloc(0);
let queue = Promise.resolve();
process.stdin.on('data', (chunk) => {
  pending = Buffer.concat([pending, chunk]);
  let nl = pending.indexOf(0x0a);
  while (nl !== -1) {
    let line = pending.subarray(0, nl);
    if (line[line.length - 1] === 0x0d) line = line.subarray(0, line.length - 1);
    const text = line.toString('utf8');
    queue = queue.then(() => onLine(text));
    pending = pending.subarray(nl + 1);
    nl = pending.indexOf(0x0a);
  }
});
process.stdin.on('end', () => {
  if (process.env.FIXTURE_IGNORE_EOF) {
    log({ event: 'eof-ignored' });
    setInterval(() => {}, 1000);
    return;
  }
  queue.then(async () => {
    log({ event: 'eof' });
    await sleep(50);
    send({ jsonrpc: '2.0', method: 'notifications/goodbye' });
    process.exitCode = Number(process.env.FIXTURE_EXIT_CODE || 0);
  });
});
process.on('SIGTERM', () => {
  log({ event: 'sigterm' });
  send({ jsonrpc: '2.0', method: 'notifications/terminated' });
  setTimeout(() => process.exit(0), 20);
});
