// What happens to one frame from the client: forwarded whole, forwarded in part (a batch with
// denied calls), or not at all; which requests the server now owes an answer; what the capture
// record adds; and the denial errors the proxy answers itself.
// Plain CommonJS, Node built-ins only (see mcp-capture-proxy.js).
'use strict';

/**
 * Applies the tool policy to a parsed client frame. Returns
 * `{ forward: 'frame' | Buffer | null, forwarded: messages sent on, record: extra capture fields,
 *    errors: denial errors to answer, asBatch }`.
 */
function routeClientFrame(parsed, policy) {
  if (parsed.format === 'json') return routeMessage(parsed.value, policy);
  if (parsed.format === 'batch') return routeBatch(parsed.value, policy);
  return { forward: 'frame', forwarded: [], record: { forwarded: true }, errors: [], asBatch: false };
}

function routeMessage(m, policy) {
  const d = policy.decide(m);
  const verdicts = d ? [{ id: m.id ?? null, ...d }] : [];
  if (d && d.decision === 'denied') {
    return {
      forward: null,
      forwarded: [],
      record: { policy: verdicts, forwarded: false },
      errors: 'id' in m ? [policy.denialError(m, d)] : [],
      asBatch: false,
    };
  }
  const record = verdicts.length > 0 ? { policy: verdicts, forwarded: true } : { forwarded: true };
  return { forward: 'frame', forwarded: [m], record, errors: [], asBatch: false };
}

// Per element: denied calls are answered by the proxy (one batch of errors); the rest go on as a
// smaller batch, re-serialized. A batch with nothing denied is forwarded byte for byte.
function routeBatch(batch, policy) {
  const decisions = batch.map((m) => policy.decide(m));
  const verdicts = [];
  decisions.forEach((d, i) => {
    if (d) verdicts.push({ index: i, id: batch[i] && batch[i].id !== undefined ? batch[i].id : null, ...d });
  });
  const denied = new Set(decisions.flatMap((d, i) => (d && d.decision === 'denied' ? [i] : [])));
  if (denied.size === 0) {
    const record = verdicts.length > 0 ? { policy: verdicts, forwarded: true } : { forwarded: true };
    return { forward: 'frame', forwarded: batch, record, errors: [], asBatch: false };
  }
  const kept = batch.filter((_m, i) => !denied.has(i));
  return {
    forward: kept.length > 0 ? Buffer.from(`${JSON.stringify(kept)}\n`, 'utf8') : null,
    forwarded: kept,
    record: { policy: verdicts, forwarded: kept.length > 0, partiallyForwarded: kept.length > 0 },
    errors: batch.flatMap((m, i) => (denied.has(i) && m && 'id' in m ? [policy.denialError(m, decisions[i])] : [])),
    asBatch: true,
  };
}

module.exports = { routeClientFrame };
