// The cost of schema fuzzing (contract §25): a 100-run fuzz (100 valid and 100 invalid inputs per
// tool, as describe.m3.fuzz does by default) of a 10-tool in-process server, over one connection
// with tracing and the in-memory store. Prints the wall time against the < 10 s target (issue 25),
// the calls made and the time per call. Needs the built dist (`npm run bench` builds first).
// M3_BENCH_FUZZ_RUNS overrides the runs.
'use strict';
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const core = require(path.join(ROOT, 'packages/core/dist'));
const { McpServer } = require('@modelcontextprotocol/sdk/server/mcp.js');
const { z } = require('zod');

const RUNS = Number(process.env.M3_BENCH_FUZZ_RUNS || 100);
const TARGET_MS = 10_000;

/** Ten tools whose schemas use the features real servers use: nesting, arrays, enums, bounds, formats. */
function tenToolServer() {
  const server = new McpServer({ name: 'ten-tools', version: '1.0.0' });
  const ok = (value) => ({ content: [{ type: 'text', text: JSON.stringify(value) }] });
  server.registerTool('add', { inputSchema: { a: z.number(), b: z.number() } }, ({ a, b }) => ok(a + b));
  server.registerTool('upper', { inputSchema: { text: z.string().max(40) } }, ({ text }) => ok(text.toUpperCase()));
  server.registerTool(
    'quote',
    { inputSchema: { weight: z.number().positive().max(70), zone: z.enum(['local', 'regional', 'intl']) } },
    (a) => ok(a),
  );
  server.registerTool('tag', { inputSchema: { tags: z.array(z.string().min(1).max(8)).min(1).max(5) } }, (a) => ok(a));
  server.registerTool(
    'user',
    { inputSchema: { user: z.object({ name: z.string(), age: z.number().int().min(0).max(150).optional() }) } },
    (a) => ok(a),
  );
  server.registerTool('email', { inputSchema: { to: z.string().email(), subject: z.string().max(60) } }, (a) => ok(a));
  server.registerTool(
    'page',
    { inputSchema: { cursor: z.string().optional(), limit: z.number().int().min(1).max(100) } },
    (a) => ok(a),
  );
  server.registerTool('toggle', { inputSchema: { on: z.boolean() } }, (a) => ok(a));
  server.registerTool('sku', { inputSchema: { sku: z.string().regex(/^[A-Z]{3}-\d{3}$/) } }, (a) => ok(a));
  server.registerTool('when', { inputSchema: { at: z.string().datetime(), id: z.string().uuid() } }, (a) => ok(a));
  return server;
}

async function run() {
  const server = new core.InProcessServer({ name: 'ten-tools', factory: tenToolServer });
  const kit = new core.MCPTestKit({ recordChecks: true });
  try {
    const client = await kit.direct(server).connect();
    const tools = await client.listAllTools();
    await client.close();
    const started = process.hrtime.bigint();
    const reports = await core.fuzzTools(kit, server, tools, { runs: RUNS, seed: 1 });
    const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
    const calls = reports.reduce((sum, r) => sum + r.valid.runs + (r.invalid?.runs ?? 0), 0);
    const failures = reports.filter((r) => r.valid.failure || r.invalid?.failure).map((r) => r.tool);
    process.stdout.write(
      [
        `tools                ${tools.length}`,
        `runs per property    ${RUNS} valid + ${RUNS} invalid`,
        `calls                ${calls}`,
        `wall time            ${(elapsedMs / 1000).toFixed(2)} s  (target < ${TARGET_MS / 1000} s: ${elapsedMs < TARGET_MS ? 'met' : 'MISSED'})`,
        `per call             ${(elapsedMs / Math.max(calls, 1)).toFixed(2)} ms`,
        `tools with findings  ${failures.length === 0 ? 'none' : failures.join(', ')}`,
        '',
      ].join('\n'),
    );
  } finally {
    await kit.close();
  }
}

module.exports = { run };
