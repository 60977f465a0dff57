// The MCP SDK client of the fake native CLIs, required on first use: a run loads only the transport
// its servers use (and none of the SDK without servers).
'use strict';

module.exports = {
  get Client() {
    return require('@modelcontextprotocol/sdk/client/index.js').Client;
  },
  get StdioClientTransport() {
    return require('@modelcontextprotocol/sdk/client/stdio.js').StdioClientTransport;
  },
  get StreamableHTTPClientTransport() {
    return require('@modelcontextprotocol/sdk/client/streamableHttp.js').StreamableHTTPClientTransport;
  },
};
