import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { TransportKind } from '../enums';

const kinds = new WeakMap<Transport, TransportKind>();

/** Remembers which kind of transport `openTransport` made, for the trace. */
export function tagTransportKind(transport: Transport, kind: TransportKind): void {
  kinds.set(transport, kind);
}

/** The kind `openTransport` gave this transport, if it made it. */
export function transportKindOf(transport: Transport): TransportKind | undefined {
  return kinds.get(transport);
}
