// Test helpers for the SDK v2 release server: connect the official SDK v2 client to it in memory,
// through the SDK's own era router (`serveStdio` over an in-memory pair), in the era asked for.
import { Client } from '@modelcontextprotocol/client';
import type { ElicitResult } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { createReleaseServer, type ReleaseEra, type ReleaseState } from './releaseServer';

/** A connected v2 client, what the server asked it, and how to close both sides. */
export interface ReleaseConnection {
  client: Client;
  /** The message of every elicitation the server sent (either era). */
  asked: string[];
  close(): Promise<void>;
}

/**
 * Connects an SDK v2 client in `era` (pinned 2026-07-28, or the 2025 handshake) to release servers
 * sharing `state`. With `answer` the client declares elicitation and answers every request with it.
 */
export async function connectRelease(
  era: ReleaseEra,
  state: ReleaseState,
  answer?: ElicitResult,
): Promise<ReleaseConnection> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const handle = serveStdio(({ era: served }) => createReleaseServer({ era: served }, state), {
    legacy: 'serve',
    transport: serverSide,
  });
  const client = new Client(
    { name: 'release-server-test', version: '1.0.0' },
    {
      capabilities: answer === undefined ? {} : { elicitation: { form: {} } },
      versionNegotiation: { mode: era === 'modern' ? { pin: '2026-07-28' } : 'legacy' },
      inputRequired: { autoFulfill: true, maxRounds: 3 },
    },
  );
  const asked: string[] = [];
  if (answer !== undefined) {
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(request.params.message);
      return answer;
    });
  }
  await client.connect(clientSide);
  return {
    client,
    asked,
    close: async () => {
      await client.close();
      await handle.close();
    },
  };
}

/** Text of the first content block of a tool result. */
export function resultText(result: unknown): string {
  const content = (result as { content: { type: string; text?: string }[] }).content;
  return content[0]?.text ?? '';
}
