import type { IncomingMessage } from 'node:http';
import { checkRequest, tokenCookieName } from './viewerSecurity';

const PORT = 41234;
const TOKEN = 'a'.repeat(43);

function request(headers: Record<string, string>, method = 'GET', url = '/'): IncomingMessage {
  return {
    headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v])),
    method,
    url,
  } as unknown as IncomingMessage;
}

const withCookie = { host: `127.0.0.1:${PORT}`, cookie: `other=1; ${tokenCookieName(PORT)}=${TOKEN}` };

describe('checkRequest', () => {
  test('accepts the cookie on every loopback spelling of the host', () => {
    for (const host of [`127.0.0.1:${PORT}`, `localhost:${PORT}`, `[::1]:${PORT}`, `LOCALHOST:${PORT}`]) {
      expect(checkRequest(request({ ...withCookie, host }), PORT, TOKEN)).toEqual({ accept: true, setCookie: null });
    }
  });

  test('the token in the query sets the cookie; a wrong one is refused', () => {
    expect(checkRequest(request({ host: `127.0.0.1:${PORT}` }, 'GET', `/?token=${TOKEN}`), PORT, TOKEN)).toEqual({
      accept: true,
      setCookie: `${tokenCookieName(PORT)}=${TOKEN}; HttpOnly; SameSite=Strict; Path=/`,
    });
    expect(checkRequest(request({ host: `127.0.0.1:${PORT}` }, 'GET', '/?token=nope'), PORT, TOKEN)).toMatchObject({
      refuse: { status: 403 },
    });
  });

  test('refuses: no token 401, wrong cookie 403, foreign host 400, writes 405, cross origin 403', () => {
    const refused = (headers: Record<string, string>, method = 'GET') => {
      const decision = checkRequest(request(headers, method), PORT, TOKEN);
      return 'refuse' in decision ? decision.refuse.status : 200;
    };
    expect(refused({ host: `127.0.0.1:${PORT}` })).toBe(401);
    expect(refused({ host: `127.0.0.1:${PORT}`, cookie: `${tokenCookieName(PORT)}=${'b'.repeat(43)}` })).toBe(403);
    expect(refused({ host: `127.0.0.1:${PORT}`, cookie: `${tokenCookieName(PORT)}=short` })).toBe(403);
    expect(refused({ host: `127.0.0.1:${PORT + 1}`, cookie: `${tokenCookieName(PORT + 1)}=${TOKEN}` })).toBe(400);
    expect(refused({ ...withCookie, host: 'example.com' })).toBe(400);
    expect(refused({ ...withCookie, host: `evil.test:${PORT}` })).toBe(400);
    expect(refused({ ...withCookie }, 'POST')).toBe(405);
    expect(refused({ ...withCookie }, 'DELETE')).toBe(405);
    expect(refused({ ...withCookie, origin: 'http://evil.test' })).toBe(403);
    expect(refused({ ...withCookie, origin: `http://127.0.0.1:${PORT}` })).toBe(200);
    expect(refused({ ...withCookie, 'sec-fetch-site': 'cross-site' })).toBe(403);
  });
});
