// The servers the example suites test. A user would point `command` at their own server binary.
import * as path from 'node:path';
import { HTTPServer, StdioServer } from 'sf-m3';

const serversDist = path.resolve(__dirname, '../servers/dist/bin');

/** The deterministic example server over stdio: a fresh process per connection. */
export const exampleServer = new StdioServer({
  name: 'example-mcp',
  command: process.execPath,
  args: [path.join(serversDist, 'example-server.js')],
});

/** The math server over stdio. */
export const mathServer = new StdioServer({
  name: 'math',
  command: process.execPath,
  args: [path.join(serversDist, 'math-server.js')],
});

/** The third-party reference server from the MCP project, over stdio. */
export const everythingServer = new StdioServer({
  name: 'everything',
  command: process.execPath,
  args: [require.resolve('@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'],
});

/** An HTTP definition for a server listening on loopback at `url`. */
export function httpServer(url: string): HTTPServer {
  return new HTTPServer({ name: 'example-http', url });
}

/** The example server under the name the shipping suites give it (`shipping:shipping_quote`). */
export const shippingServer = new StdioServer({
  name: 'shipping',
  command: process.execPath,
  args: [path.join(serversDist, 'example-server.js')],
});

/**
 * The release server, built on the SDK v2 (`@modelcontextprotocol/server`), over stdio. It serves
 * both protocol eras; with `protocol: 'auto'` (the default) the kit connects in 2026-07-28.
 */
export const releaseServer = new StdioServer({
  name: 'release',
  command: process.execPath,
  args: [path.join(serversDist, 'release-server.js')],
});
