// The viewer's request gate (contract §19, upstream §7.5): loopback Host only, GET/HEAD only, a
// same-origin Origin when one is sent, and the per-start token — from `?token=` once (then kept in
// an HttpOnly, SameSite=Strict cookie) or from that cookie. Everything else is refused before routing.
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** Why a request was refused, as the status and the one-line text the viewer answers with. */
export interface Refusal {
  status: 400 | 401 | 403 | 405;
  message: string;
}

/** What the gate decided: refuse, accept, or accept and set the token cookie (the URL carried it). */
export type GateDecision = { refuse: Refusal } | { accept: true; setCookie: string | null };

/** The name of the cookie holding the token; per port, since cookies are not port-scoped. */
export function tokenCookieName(port: number): string {
  return `m3_viewer_${port}`;
}

/** The hosts a loopback viewer answers to, with its port. */
export function allowedHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`];
}

function sameToken(given: string, token: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function cookieValue(header: string | undefined, name: string): string | null {
  for (const part of (header ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return null;
}

/** Decides one request. `port` is the one the viewer listens on; `token` is this start's secret. */
export function checkRequest(request: IncomingMessage, port: number, token: string): GateDecision {
  const host = (request.headers.host ?? '').toLowerCase();
  if (!allowedHosts(port).includes(host)) {
    return { refuse: { status: 400, message: 'the viewer answers only to a loopback Host (127.0.0.1 or localhost)' } };
  }
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return { refuse: { status: 405, message: 'the viewer is read-only: only GET and HEAD requests are served' } };
  }
  const origin = request.headers.origin;
  if (origin !== undefined && origin !== `http://${host}`) {
    return { refuse: { status: 403, message: 'cross-origin requests are refused' } };
  }
  if (request.headers['sec-fetch-site'] === 'cross-site') {
    return { refuse: { status: 403, message: 'cross-site requests are refused' } };
  }
  const url = new URL(request.url ?? '/', `http://${host}`);
  const fromQuery = url.searchParams.get('token');
  if (fromQuery !== null) {
    if (!sameToken(fromQuery, token)) return { refuse: { status: 403, message: 'wrong viewer token' } };
    return {
      accept: true,
      setCookie: `${tokenCookieName(port)}=${token}; HttpOnly; SameSite=Strict; Path=/`,
    };
  }
  const fromCookie = cookieValue(request.headers.cookie, tokenCookieName(port));
  if (fromCookie === null) {
    return { refuse: { status: 401, message: 'open the viewer with the URL m3 ui printed (it carries the token)' } };
  }
  if (!sameToken(fromCookie, token)) return { refuse: { status: 403, message: 'wrong viewer token' } };
  return { accept: true, setCookie: null };
}
