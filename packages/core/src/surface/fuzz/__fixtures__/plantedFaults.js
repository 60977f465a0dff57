// The planted-faults MCP server, one planted fault per tool, for the fuzzer's tests (contract §25).
// It uses the SDK's low-level Server so nothing validates for it: what a tool does with its input is
// exactly what is written here. planted-faults-server.js serves it over stdio; tests about a fault
// that is not a process's (bad output, a JSON-RPC error, seeds) run it in process.
//   healthy   checks its input and answers isError on bad input (passes both properties)
//   crash     calls crash() when n > 100 (a valid n; bad input gets isError): the bin exits with code 3
//   hang      never answers when mode is "slow"
//   bad_output  returns structuredContent.total as a string when qty > 500 (breaks its outputSchema)
//   rpc_error   throws on bad input, which the SDK sends as JSON-RPC -32603, not -32602
'use strict';
const { Server } = require('@modelcontextprotocol/sdk/server/index.js');
const { CallToolRequestSchema, ListToolsRequestSchema } = require('@modelcontextprotocol/sdk/types.js');

const TOOLS = [
  {
    name: 'healthy',
    description: 'Greets a name.',
    inputSchema: {
      type: 'object',
      properties: { name: { type: 'string', maxLength: 20 } },
      required: ['name'],
      additionalProperties: false,
    },
  },
  {
    name: 'crash',
    description: 'Counts to n.',
    inputSchema: {
      type: 'object',
      properties: { n: { type: 'integer', minimum: 0, maximum: 1000 } },
      required: ['n'],
    },
  },
  {
    name: 'hang',
    description: 'Answers fast or slow.',
    inputSchema: {
      type: 'object',
      properties: { mode: { enum: ['fast', 'slow'] }, label: { type: 'string' } },
      required: ['mode', 'label'],
    },
  },
  {
    name: 'bad_output',
    description: 'Prices a quantity.',
    inputSchema: {
      type: 'object',
      properties: { qty: { type: 'integer', minimum: 0, maximum: 1000 } },
      required: ['qty'],
    },
    outputSchema: { type: 'object', properties: { total: { type: 'number' } }, required: ['total'] },
  },
  {
    name: 'rpc_error',
    description: 'Looks a name up.',
    inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
  },
];

const text = (value) => ({ content: [{ type: 'text', text: String(value) }] });
const toolError = (message) => ({ content: [{ type: 'text', text: message }], isError: true });

/**
 * A fresh planted-faults server (SDK low-level `Server`). `crash(message)` is what the crash tool
 * does past n=100: the stdio bin writes the message and exits with code 3.
 */
function createPlantedFaultsServer({ crash }) {
  const server = new Server({ name: 'planted-faults', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: TOOLS }));
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    const args = request.params.arguments ?? {};
    switch (request.params.name) {
      case 'healthy': {
        const extra = Object.keys(args).filter((key) => key !== 'name');
        if (typeof args.name !== 'string' || args.name.length > 20 || extra.length > 0) return toolError('bad name');
        return text(`hello ${args.name}`);
      }
      case 'crash':
        if (!Number.isInteger(args.n) || args.n < 0 || args.n > 1000) return toolError('n must be an integer 0..1000');
        if (args.n > 100) return crash(`planted crash: n=${args.n}`);
        return text(args.n);
      case 'hang':
        if (args.mode !== 'fast' && args.mode !== 'slow') return toolError('mode must be fast or slow');
        if (typeof args.label !== 'string') return toolError('label must be a string');
        if (args.mode === 'slow') return new Promise(() => undefined);
        return text(args.label);
      case 'bad_output': {
        if (!Number.isInteger(args.qty) || args.qty < 0 || args.qty > 1000) return toolError('qty must be 0..1000');
        const total = args.qty * 2;
        return { ...text(total), structuredContent: { total: args.qty > 500 ? `${total} USD` : total } };
      }
      case 'rpc_error':
        if (typeof args.name !== 'string') throw new Error('name is not a string');
        return text(args.name);
      default:
        return toolError(`unknown tool ${request.params.name}`);
    }
  });
  return server;
}

module.exports = { TOOLS, createPlantedFaultsServer };
