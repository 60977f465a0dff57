#!/usr/bin/env node
// A hand-written stdio "MCP server" (no SDK) that initializes correctly and then answers with
// malformed JSON-RPC: results of the wrong shape, a response that is not JSON-RPC at all, and a
// line that is not JSON. Used to check that the direct client reports ProtocolError, not a crash.
'use strict';
const readline = require('node:readline');

const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
const lines = readline.createInterface({ input: process.stdin });
lines.on('line', (line) => {
  const message = JSON.parse(line);
  if (message.id === undefined) return; // notifications
  const { id, method, params } = message;
  if (method === 'initialize') {
    send({
      jsonrpc: '2.0',
      id,
      result: {
        protocolVersion: params.protocolVersion,
        capabilities: { tools: {}, resources: {} },
        serverInfo: { name: 'malformed-fixture', version: '1.0.0' },
      },
    });
  } else if (method === 'ping') {
    send({ jsonrpc: '2.0', id, result: {} });
  } else if (method === 'tools/list') {
    send({ jsonrpc: '2.0', id, result: { tools: 'not-a-list' } });
  } else if (method === 'resources/read') {
    send({ jsonrpc: '2.0', id, result: { contents: [{ uri: 42, text: null }] } });
  } else if (method === 'tools/call' && params.name === 'not_json') {
    process.stdout.write('this is not json {\n');
  } else if (method === 'tools/call' && params.name === 'both') {
    send({ jsonrpc: '2.0', id, result: { content: [] }, error: { code: -1, message: 'both at once' } });
  } else if (method === 'tools/call') {
    send({ jsonrpc: '2.0', id, result: { content: 'not-an-array', isError: 'maybe' } });
  } else {
    send({ jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found' } });
  }
});
