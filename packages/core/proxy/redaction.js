// What the proxy may store of a frame or of stderr: secrets replaced, size bounded.
// Plain CommonJS, Node built-ins only (see mcp-capture-proxy.js).
'use strict';

const REDACTED = '[REDACTED]';
const BEARER = /\b(Bearer|Basic)(\s+)([A-Za-z0-9._~+/=-]+)/gi;
// Same rule as src/redaction/Redactor.ts: a plain word after "Basic" is a word, not a token.
const NOT_A_TOKEN = /^(?:.{0,3}|[A-Za-z][a-z]{0,15}|[0-9]{1,7})$/;
const SCHEME_HINT = /earer|asic/i;

function redactSchemeToken(whole, scheme, space, token) {
  return NOT_A_TOKEN.test(token) ? whole : `${scheme}${space}${REDACTED}`;
}
const URL_USERINFO = /(\b[a-z][a-z0-9+.-]*:\/\/)[^\s/@:]+:[^\s/@]+@/gi;

/**
 * Canary redaction (plain and JSON-escaped forms, longest first), bearer tokens and URL userinfo.
 * `redact.bytes(buffer)` does the same on bytes that are not UTF-8 (a binary frame), through
 * latin1, which maps every byte to one character, so such a frame cannot carry a canary either.
 */
function makeRedactor(canaries) {
  const forms = new Set();
  for (const c of canaries) {
    if (typeof c !== 'string' || c.length < 4) continue;
    forms.add(c);
    forms.add(JSON.stringify(c).slice(1, -1));
  }
  const sorted = [...forms].sort((a, b) => b.length - a.length);
  const byteForms = sorted.map((form) => Buffer.from(form, 'utf8').toString('latin1'));
  const cleanText = (text, secrets) => {
    let out = text;
    for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    if (SCHEME_HINT.test(out)) out = out.replace(BEARER, redactSchemeToken);
    if (out.includes('@')) out = out.replace(URL_USERINFO, `$1${REDACTED}@`);
    return out;
  };
  const redact = (text) => cleanText(text, sorted);
  redact.bytes = (buffer) => Buffer.from(cleanText(buffer.toString('latin1'), byteForms), 'latin1');
  return redact;
}

/** Cuts a UTF-8 string to at most `limit` bytes without splitting a character. */
function cutUtf8(text, limit) {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes <= limit) return { text, sizeBytes: bytes, truncated: false };
  const buf = Buffer.from(text, 'utf8');
  let end = limit;
  while (end > 0 && (buf[end] & 0xc0) === 0x80) end -= 1;
  return { text: buf.subarray(0, end).toString('utf8'), sizeBytes: bytes, truncated: true };
}

module.exports = { makeRedactor, cutUtf8 };
