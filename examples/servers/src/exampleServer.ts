// The deterministic example server of the upstream toolkit (reference upstream-core.md §7.1),
// rebuilt on the MCP TypeScript SDK: order tools, a shipping quote, a second tools page, one
// resource, one resource template, one prompt with completion, subscriptions, logging level and
// notification counters. State belongs to one server instance (one stdio process, one HTTP session).
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { completable } from '@modelcontextprotocol/sdk/server/completable.js';
import {
  ErrorCode,
  McpError,
  ProgressNotificationSchema,
  RootsListChangedNotificationSchema,
  SetLevelRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { installToolTable, type ExampleTool } from './toolTable';

/** Server name reported in `initialize`. */
export const EXAMPLE_SERVER_NAME = 'mcp-pal-example-server';
/** Text of the `memory://testing-guide` resource. */
export const TESTING_GUIDE_TEXT = '# Testing guide\n\nDiscover capabilities before asserting behavior.';

const SHIPPING_RATES = { local: 2.0, regional: 3.5, international: 7.0 } as const;

interface StoredOrder {
  order_id: string;
  customer_id: string;
  item: string;
  quantity: number;
}

/** Mutable state observed by `session_observations`. */
interface ExampleState {
  orders: Map<string, StoredOrder>;
  subscriptions: Set<string>;
  loggingLevel: string | null;
  progressNotifications: number;
  rootsChanged: number;
}

/** Upstream normalisation: lowercase, trim, runs of non `[a-z0-9]` become `-`, no edge dashes. */
export function normalizeCustomerName(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** Upstream quote: `round(5 + weight × rate(zone), 2)` in USD. */
export function shippingAmount(weightKg: number, zone: keyof typeof SHIPPING_RATES): number {
  return Math.round((5 + weightKg * SHIPPING_RATES[zone]) * 100) / 100;
}

function exampleTools(state: ExampleState): { first: ExampleTool[]; marker: ExampleTool } {
  const first: ExampleTool[] = [
    {
      name: 'normalize_customer',
      description: 'Convert a customer name into a stable identifier',
      input: z.strictObject({ name: z.string().min(1) }),
      output: z.strictObject({ customer_id: z.string() }),
      run: (args) => ({ structured: { customer_id: normalizeCustomerName(String(args.name)) } }),
    },
    {
      name: 'create_order',
      description: 'Create an order for a normalized customer',
      input: z.strictObject({
        customer_id: z.string().min(1),
        item: z.string().min(1),
        quantity: z.number().int().min(1),
      }),
      output: z.strictObject({ order_id: z.string() }),
      run: (args) => {
        const orderId = `order-${String(state.orders.size + 1).padStart(3, '0')}`;
        state.orders.set(orderId, {
          order_id: orderId,
          customer_id: String(args.customer_id),
          item: String(args.item),
          quantity: Number(args.quantity),
        });
        return { structured: { order_id: orderId } };
      },
    },
    {
      name: 'get_order',
      description: 'Retrieve an order created in this server session',
      input: z.strictObject({ order_id: z.string().min(1) }),
      output: z.strictObject({
        order_id: z.string(),
        customer_id: z.string(),
        item: z.string(),
        quantity: z.number().int(),
      }),
      run: (args) => {
        const order = state.orders.get(String(args.order_id));
        return order ? { structured: { ...order } } : { error: 'order not found' };
      },
    },
    {
      name: 'shipping_quote',
      description: 'Calculate a deterministic shipping quote',
      input: z.strictObject({
        weight_kg: z.number().gt(0),
        zone: z.enum(['local', 'regional', 'international']),
      }),
      output: z.strictObject({ amount: z.number(), currency: z.string() }),
      run: (args) => ({
        structured: {
          amount: shippingAmount(Number(args.weight_kg), args.zone as keyof typeof SHIPPING_RATES),
          currency: 'USD',
        },
      }),
    },
    {
      name: 'batch_total',
      description: 'Sum a list of numeric values',
      input: z.strictObject({ values: z.array(z.number()) }),
      output: z.strictObject({ total: z.number() }),
      run: (args) => ({ structured: { total: (args.values as number[]).reduce((sum, v) => sum + v, 0) } }),
    },
    {
      name: 'always_fails',
      description: 'Return a normal MCP tool error for assertion examples',
      input: z.strictObject({}),
      run: () => ({ error: 'expected example failure' }),
    },
    {
      name: 'process_id',
      description: 'Return the server process identifier',
      input: z.strictObject({}),
      output: z.strictObject({ pid: z.number().int() }),
      run: () => ({ structured: { pid: process.pid } }),
    },
    {
      name: 'session_observations',
      description: 'Return notifications and session settings observed by the server',
      input: z.strictObject({}),
      run: () => ({
        structured: {
          logging_level: state.loggingLevel,
          progress_notifications: state.progressNotifications,
          roots_changed: state.rootsChanged,
          subscriptions: [...state.subscriptions].sort(),
        },
      }),
    },
  ];
  const marker: ExampleTool = {
    name: 'catalog_marker',
    description: 'Second-page marker used to demonstrate pagination',
    input: z.strictObject({}),
    run: () => ({ error: 'unknown tool: catalog_marker' }),
  };
  return { first, marker };
}

/**
 * Creates a fresh example server (its own orders, subscriptions and counters). Connect it to any
 * SDK server transport: stdio, Streamable HTTP or `InMemoryTransport`.
 */
export function createExampleServer(): McpServer {
  const state: ExampleState = {
    orders: new Map(),
    subscriptions: new Set(),
    loggingLevel: null,
    progressNotifications: 0,
    rootsChanged: 0,
  };
  const mcp = new McpServer(
    { name: EXAMPLE_SERVER_NAME, version: '1.0.0' },
    {
      instructions: 'Deterministic server for MCP Pal SDK examples',
      capabilities: { tools: {}, resources: { subscribe: true }, prompts: {}, completions: {}, logging: {} },
    },
  );

  const { first, marker } = exampleTools(state);
  // catalog_marker is listed on page 2 only; calling it takes the unknown-tool path upstream does.
  installToolTable(mcp.server, { first, pages: [{ cursor: 'page-2', tools: [marker], listedOnly: true }] });

  mcp.registerResource(
    'testing-guide',
    'memory://testing-guide',
    { description: 'A short guide exposed by the example server', mimeType: 'text/markdown' },
    (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/markdown', text: TESTING_GUIDE_TEXT }] }),
  );
  mcp.registerResource(
    'order',
    new ResourceTemplate('memory://orders/{order_id}', {
      list: undefined,
      complete: { order_id: () => ['order-001', 'order-002'] },
    }),
    { description: 'An order stored in the current server session', mimeType: 'application/json' },
    (uri, variables) => {
      const order = state.orders.get(String(variables.order_id));
      if (!order) throw new McpError(ErrorCode.InvalidParams, `order not found: ${String(variables.order_id)}`);
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(order) }] };
    },
  );

  mcp.registerPrompt(
    'review_order',
    {
      description: 'Ask an assistant to review an order',
      argsSchema: { order_id: completable(z.string(), () => ['order-001', 'order-002']) },
    },
    (args) => ({
      description: 'Review a stored order',
      messages: [
        {
          role: 'user',
          content: { type: 'text', text: `Review order ${args.order_id || 'unknown'} for correctness.` },
        },
      ],
    }),
  );

  const server = mcp.server;
  server.setRequestHandler(SubscribeRequestSchema, (request) => {
    state.subscriptions.add(request.params.uri);
    return {};
  });
  server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
    state.subscriptions.delete(request.params.uri);
    return {};
  });
  server.setRequestHandler(SetLevelRequestSchema, (request) => {
    state.loggingLevel = request.params.level;
    return {};
  });
  server.setNotificationHandler(ProgressNotificationSchema, () => {
    state.progressNotifications += 1;
  });
  server.setNotificationHandler(RootsListChangedNotificationSchema, () => {
    state.rootsChanged += 1;
  });
  return mcp;
}
