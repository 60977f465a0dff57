import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  brotliDecompressSync,
  createBrotliDecompress,
  createGunzip,
  createInflate,
  gunzipSync,
  inflateSync,
} from 'node:zlib';
import { Readable, Transform, type TransformCallback } from 'node:stream';
import { CassetteMissError } from '../../errors/CassetteMissError';
import { M3Error } from '../../errors/M3Error';
import type { Redactor } from '../../redaction/Redactor';
import type { CassetteMode, CassetteUse } from '../CassetteMode';
import type { CassetteChannel } from '../CassetteScope';
import { flattenHeaders, HOP_BY_HOP_HEADERS } from '../cassetteHeaders';
import { normalizeCassetteRequest } from '../normalizeCassetteRequest';
import type { RecordedTape } from '../RecordedTape';
import { VolatileStrings } from '../VolatileStrings';
import { replayCassetteResponse, toCassetteResponse } from './cassetteResponse';
import { forwardUpstream } from './forwardUpstream';

/** What a channel needs from its scope. */
export interface CassetteProxyChannelOptions {
  readonly mode: CassetteMode;
  readonly testName: string;
  readonly testPath: string;
  readonly channel: string;
  readonly upstream: string;
  readonly volatileStrings?: readonly string[];
  readonly redactor: Redactor;
  /** The tape of (test, channel), shared by every channel the test opens with the same key. */
  readonly tape: RecordedTape;
}

/** One request as both front doors (HTTP proxy, fetch) hand it to the channel. */
interface ChannelRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body: Buffer;
  readonly signal?: AbortSignal;
}

/** The channel's answer: status, headers, and the body as it arrives. */
interface ChannelReply {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: Readable;
}

/** HTTP status of a request that has no recorded answer in mode `replay`. */
export const CASSETTE_MISS_STATUS = 599;

/**
 * One model client's recording proxy (contract §24): a loopback HTTP server and a `fetch` over the
 * same logic. Replayed answers never connect anywhere; live ones go to the upstream origin with the
 * request's own path and stream back to the client as they arrive while the cassette collects them.
 */
export class CassetteProxyChannel implements CassetteChannel {
  readonly baseUrl: string;
  readonly fetch: typeof fetch;
  private readonly options: CassetteProxyChannelOptions;
  private readonly upstreamUrl: URL;
  private readonly prefix: string;
  private readonly volatile: VolatileStrings;
  private readonly server: Server;
  private replayedCount = 0;
  private recordedCount = 0;
  private firstMiss: CassetteMissError | null = null;
  private closing: Promise<void> | null = null;

  private constructor(options: CassetteProxyChannelOptions, upstreamUrl: URL, server: Server) {
    this.options = options;
    this.upstreamUrl = upstreamUrl;
    this.prefix = upstreamUrl.pathname.replace(/\/+$/, '');
    this.volatile = new VolatileStrings(options.volatileStrings);
    this.server = server;
    this.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}${this.prefix}`;
    this.fetch = ((input: string | URL | Request, init?: RequestInit) =>
      this.fetchThrough(input, init)) as typeof fetch;
  }

  /** Starts the loopback proxy of one channel. */
  static async open(options: CassetteProxyChannelOptions): Promise<CassetteProxyChannel> {
    let upstreamUrl: URL;
    try {
      upstreamUrl = new URL(options.upstream);
    } catch {
      throw new M3Error(
        'invalid_argument',
        `cassette channel "${options.channel}": upstream ${JSON.stringify(options.redactor.redactText(options.upstream))} is not an absolute URL: give the endpoint the client would reach, e.g. https://api.openai.com/v1`,
      );
    }
    if (upstreamUrl.protocol !== 'http:' && upstreamUrl.protocol !== 'https:') {
      throw new M3Error(
        'invalid_argument',
        `cassette channel "${options.channel}": upstream must be an http(s) URL, got ${upstreamUrl.protocol}`,
      );
    }
    const opened: { channel?: CassetteProxyChannel } = {};
    const server = createServer((req, res) => void opened.channel?.handleHttp(req, res));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    opened.channel = new CassetteProxyChannel(options, upstreamUrl, server);
    return opened.channel;
  }

  use(): CassetteUse | null {
    if (this.replayedCount === 0 && this.recordedCount === 0) return null;
    if (this.recordedCount === 0) return 'replayed';
    return this.replayedCount === 0 ? 'recorded' : 'mixed';
  }

  counts(): { readonly replayed: number; readonly recorded: number } {
    return { replayed: this.replayedCount, recorded: this.recordedCount };
  }

  miss(): Error | null {
    return this.firstMiss;
  }

  close(): Promise<void> {
    this.closing ??= new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
    return this.closing;
  }

  private async handleHttp(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const abort = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) abort.abort();
    });
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const reply = await this.serve({
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        headers: flattenHeaders(req.headers),
        body: Buffer.concat(chunks),
        signal: abort.signal,
      });
      res.writeHead(reply.status, reply.headers);
      reply.body.once('error', () => res.destroy());
      reply.body.pipe(res);
    } catch (error) {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(errorBody('cassette_error', this.options.redactor.redactText(String((error as Error).message))));
    }
  }

  private async fetchThrough(input: string | URL | Request, init?: RequestInit): Promise<Response> {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const own = new URL(this.baseUrl);
    if (url.origin !== this.upstreamUrl.origin && url.origin !== own.origin) {
      throw new M3Error(
        'invalid_argument',
        `cassette channel "${this.options.channel}" only answers requests under ${this.options.redactor.redactText(this.upstreamUrl.origin)}, not ${this.options.redactor.redactText(url.origin)}`,
      );
    }
    request.signal.throwIfAborted();
    const reply = await this.serve({
      method: request.method,
      path: `${url.pathname}${url.search}`,
      headers: flattenHeaders(request.headers),
      body: Buffer.from(await request.arrayBuffer()),
      signal: request.signal,
    });
    const nullBody = [101, 204, 205, 304].includes(reply.status);
    if (nullBody) reply.body.resume();
    // fetch hands its caller a decoded body, as global fetch does
    const decoder = nullBody ? null : decoderFor(reply.headers['content-encoding']);
    const headers = { ...reply.headers };
    if (decoder) {
      delete headers['content-encoding'];
      delete headers['content-length'];
    }
    const body = decoder ? reply.body.pipe(decoder) : reply.body;
    return new Response(nullBody ? null : (Readable.toWeb(body) as unknown as ReadableStream<Uint8Array>), {
      status: reply.status,
      headers,
    });
  }

  /** The one logic behind both front doors: replay, miss, or go live and record. */
  private async serve(request: ChannelRequest): Promise<ChannelReply> {
    const { mode, tape, redactor } = this.options;
    const normalized = normalizeCassetteRequest(
      { method: request.method, path: request.path, headers: request.headers, body: request.body },
      { volatile: this.volatile, redactor },
    );
    const recorded = tape.take(normalized);
    if (recorded !== null) {
      this.replayedCount += 1;
      const replayed = replayCassetteResponse(recorded, this.volatile);
      return {
        status: replayed.status,
        headers: replayed.headers,
        body: Readable.from(replayed.chunks.map((chunk) => Buffer.from(chunk))),
      };
    }
    if (mode === 'replay') {
      const miss = new CassetteMissError({
        testName: this.options.testName,
        testPath: this.options.testPath,
        channel: this.options.channel,
        requestNumber: tape.requests,
        request: normalized,
        nearest: tape.nearest(normalized),
      });
      this.firstMiss ??= miss;
      // `x-should-retry: false`: the OpenAI and Anthropic SDKs (inside most CLIs) retry a 5xx unless
      // told not to, and a miss stays a miss however often it is asked.
      return jsonReply(CASSETTE_MISS_STATUS, errorBody('cassette_miss', miss.message), { 'x-should-retry': 'false' });
    }
    let upstream: IncomingMessage;
    try {
      upstream = await forwardUpstream(
        this.upstreamUrl,
        request.method,
        request.path,
        request.headers,
        request.body,
        request.signal,
      );
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      return jsonReply(
        502,
        errorBody(
          'cassette_upstream_unreachable',
          redactor.redactText(
            `cassette channel "${this.options.channel}" could not reach the model endpoint ${this.upstreamUrl.origin} (${reason}): ` +
              'start the endpoint, or replay the recorded answers with M3_CASSETTES=replay',
          ),
        ),
      );
    }
    const status = upstream.statusCode ?? 502;
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(flattenHeaders(upstream.headers))) {
      if (!HOP_BY_HOP_HEADERS.has(name)) headers[name] = value;
    }
    const record = mode === 'auto' || mode === 'record';
    const collected: Buffer[] = [];
    const through = new Transform({
      transform: (chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void => {
        if (record) collected.push(chunk);
        done(null, chunk);
      },
      flush: (done: TransformCallback): void => {
        if (record) {
          tape.record({
            request: normalized,
            response: toCassetteResponse(
              status,
              upstream.headers,
              decodeBody(Buffer.concat(collected), upstream.headers['content-encoding']),
              this.volatile,
              redactor,
            ),
          });
          this.recordedCount += 1;
        }
        done();
      },
    });
    upstream.once('error', (error) => through.destroy(error));
    // a client that stops reading (or goes away) ends the upstream response too
    through.once('close', () => {
      if (!upstream.complete) upstream.destroy();
    });
    upstream.once('aborted', () => through.destroy(new Error('the model endpoint closed the response early')));
    upstream.pipe(through);
    return { status, headers, body: through };
  }
}

/**
 * The body as text bytes: the upstream is asked for no compression, but a provider may compress
 * anyway; the client gets the bytes as sent, the cassette the decoded body.
 */
function decodeBody(body: Buffer, encoding: string | undefined): Buffer {
  const coding = encoding?.trim().toLowerCase();
  try {
    if (coding === 'gzip' || coding === 'x-gzip') return gunzipSync(body);
    if (coding === 'br') return brotliDecompressSync(body);
    if (coding === 'deflate') return inflateSync(body);
  } catch {
    return body;
  }
  return body;
}

/** A stream that decodes `encoding`, or null for an identity body. */
function decoderFor(encoding: string | undefined): Transform | null {
  const coding = encoding?.trim().toLowerCase();
  if (coding === 'gzip' || coding === 'x-gzip') return createGunzip();
  if (coding === 'br') return createBrotliDecompress();
  if (coding === 'deflate') return createInflate();
  return null;
}

function errorBody(type: string, message: string): string {
  return JSON.stringify({ error: { type, message } });
}

function jsonReply(status: number, body: string, extra: Record<string, string> = {}): ChannelReply {
  return {
    status,
    headers: { 'content-type': 'application/json', ...extra },
    body: Readable.from([Buffer.from(body)]),
  };
}
