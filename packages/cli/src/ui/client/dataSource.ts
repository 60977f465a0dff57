// Where the front-end reads its data: the viewer's /api (same origin, the token cookie rides along)
// or, in a static report opened from disk, the answers embedded in the page under the same paths.

/** The embedded data of a static report (`<script type="application/json" id="m3-data">`). */
export interface EmbeddedData {
  mode: 'static';
  runId: string;
  generatedAt: string;
  /** The size budget the report was written within (reports written before it was set have none). */
  maxBytes?: number;
  /** Executions embedded with long strings cut. */
  summarizedExecutions?: number;
  /** Answers left out to stay within `maxBytes`. */
  omitted?: { executions: number; evidence: number; trends: number };
  responses: Record<string, unknown>;
}

let embedded: EmbeddedData | null | undefined;

/** The static report's data, or null when the page is served by `m3 ui`. */
export function embeddedData(): EmbeddedData | null {
  if (embedded === undefined) {
    const node = document.getElementById('m3-data');
    embedded = node?.textContent ? (JSON.parse(node.textContent) as EmbeddedData) : null;
  }
  return embedded;
}

/** A load that failed, with the message to show. */
export class LoadError extends Error {}

/** Loads one API answer. */
export async function load<T>(path: string): Promise<T> {
  const data = embeddedData();
  if (data !== null) {
    if (!(path in data.responses)) {
      const left = data.omitted ? data.omitted.executions + data.omitted.evidence + data.omitted.trends : 0;
      throw new LoadError(
        left > 0
          ? `this static report holds run ${data.runId} within ${Math.round((data.maxBytes ?? 0) / 1000)} kB, and this part did not fit; open it with \`m3 ui\``
          : `this static report holds run ${data.runId} only; open the rest with \`m3 ui\``,
      );
    }
    return data.responses[path] as T;
  }
  const response = await fetch(path, { credentials: 'same-origin', headers: { Accept: 'application/json' } });
  const body = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
  if (!response.ok) throw new LoadError(body?.error?.message ?? `${response.status} ${response.statusText}`);
  return body as T;
}
