// What the proxy may store of a frame or of stderr: secrets replaced, size bounded.
// Plain CommonJS, Node built-ins only (see mcp-capture-proxy.js).
'use strict';

const REDACTED = '[REDACTED]';
const BEARER = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi;
const URL_USERINFO = /(\b[a-z][a-z0-9+.-]*:\/\/)[^\s/@:]+:[^\s/@]+@/gi;

/** Canary redaction (plain and JSON-escaped forms, longest first), bearer tokens and URL userinfo. */
function makeRedactor(canaries) {
  const forms = new Set();
  for (const c of canaries) {
    if (typeof c !== 'string' || c.length < 4) continue;
    forms.add(c);
    forms.add(JSON.stringify(c).slice(1, -1));
  }
  const sorted = [...forms].sort((a, b) => b.length - a.length);
  return (text) => {
    let out = text;
    for (const secret of sorted) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    if (out.includes('earer ') || out.includes('asic ')) out = out.replace(BEARER, `$1 ${REDACTED}`);
    if (out.includes('@')) out = out.replace(URL_USERINFO, `$1${REDACTED}@`);
    return out;
  };
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
