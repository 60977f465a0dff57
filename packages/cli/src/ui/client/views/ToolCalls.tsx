// Tool calls of an execution: wire and reported evidence side by side, the fields where they
// disagree (a `turn` conflict: the agent reported the call in another turn than it crossed the
// wire), the policy verdict (a denied call never reached the server) and the latency.
import type { EvidenceConflict, ReportedToolCall, ToolCallEntry, WireToolCall } from '@sf-m3/core';
import { JsonBlock, Observed, Status } from '../components/Bits';
import { duration } from '../format';
import { ToolResult } from './ToolResult';

/** What a disagreement on each field means. */
const CONFLICT_NOTES: Record<EvidenceConflict['field'], string> = {
  server: 'the agent named another server',
  tool: 'the agent named another tool',
  arguments: 'the agent reported other arguments',
  result: 'the agent reported another result',
  status: 'the agent reported another status',
  turn: 'the agent reported the call in another turn than it crossed the wire',
};

/** What a one-sided correlation means (both sides present needs no note). */
const CORRELATION_NOTES: Partial<Record<ToolCallEntry['correlation'], string>> = {
  reported_only: 'the agent reported this call; no matching tools/call crossed the wire',
  wire_only: 'this call crossed the wire; the agent did not report it',
};

/**
 * The tool-call table. `direct`: the calls of a direct connection, which no agent reports, so
 * there is no reported side and no correlation to show (only the wire).
 */
export function ToolCalls({ calls, direct = false }: { calls: readonly ToolCallEntry[]; direct?: boolean }) {
  if (calls.length === 0) return <p class="muted">No tool calls.</p>;
  return (
    <div class="tool-calls" data-testid="tool-calls">
      {calls.map((call, i) => (
        <article
          key={call.entryId}
          class={`tool-call${call.conflicts.length > 0 ? ' has-conflict' : ''}${call.policy?.decision === 'denied' ? ' denied' : ''}`}
          data-testid="tool-call"
          data-policy={call.policy?.decision ?? ''}
        >
          <header>
            <strong>#{i + 1}</strong> <code>{call.server}</code> ·{' '}
            <Observed obs={call.tool} render={(v) => <code>{String(v)}</code>} /> <Status value={call.status} />{' '}
            <span class="muted">
              {direct ? 'direct call' : `correlation ${call.correlation}`} · latency {duration(call.latencyMs)}
            </span>
            {!direct && CORRELATION_NOTES[call.correlation] ? (
              <span class="correlation-note" data-testid="correlation-note">
                {' '}
                ({CORRELATION_NOTES[call.correlation]})
              </span>
            ) : null}
            {call.policy ? (
              <span class={`policy policy-${call.policy.decision}`} data-testid="policy">
                {' '}
                policy {call.policy.decision}: {call.policy.reason}
                {call.policy.decision === 'denied'
                  ? ' — the capture proxy answered it; the call never reached the server'
                  : ''}
              </span>
            ) : null}
          </header>
          {call.conflicts.length > 0 ? (
            <div class="conflicts" data-testid="conflicts">
              <strong>Wire and reported evidence disagree</strong>
              <table class="grid">
                <thead>
                  <tr>
                    <th>Field</th>
                    <th>Wire (what crossed the wire)</th>
                    <th>Reported (what the agent said)</th>
                  </tr>
                </thead>
                <tbody>
                  {call.conflicts.map((c) => (
                    <tr key={c.field} data-field={c.field}>
                      <td>
                        <strong>{c.field}</strong>
                        <div class="muted small">{CONFLICT_NOTES[c.field] ?? ''}</div>
                      </td>
                      <td>
                        <JsonBlock value={c.wire} />
                      </td>
                      <td>
                        <JsonBlock value={c.reported} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : null}
          <div class={direct ? 'wire-only' : 'side-by-side'}>
            <div>
              <h4>Wire</h4>
              <Observed
                obs={call.wire}
                render={(w) => {
                  const wire = w as WireToolCall;
                  return (
                    <dl>
                      <dt>tool</dt>
                      <dd>
                        <code>{wire.tool}</code> <span class="muted">JSON-RPC id {String(wire.jsonrpcId)}</span>
                      </dd>
                      <dt>arguments</dt>
                      <dd>
                        <JsonBlock value={wire.arguments} />
                      </dd>
                      <dt>result</dt>
                      <dd>
                        <Observed obs={wire.result} render={(v) => <ToolResult value={v} />} />
                      </dd>
                    </dl>
                  );
                }}
              />
            </div>
            {direct ? null : (
              <div>
                <h4>Reported</h4>
                <Observed
                  obs={call.reported}
                  render={(r) => {
                    const reported = r as ReportedToolCall;
                    return (
                      <dl>
                        <dt>tool</dt>
                        <dd>
                          <code>{reported.tool}</code>
                        </dd>
                        <dt>arguments</dt>
                        <dd>
                          <Observed obs={reported.arguments} />
                        </dd>
                        <dt>status</dt>
                        <dd>
                          <Observed obs={reported.status} render={(v) => String(v)} />
                        </dd>
                        <dt>result</dt>
                        <dd>
                          <Observed obs={reported.result} render={(v) => <ToolResult value={v} />} />
                        </dd>
                      </dl>
                    );
                  }}
                />
              </div>
            )}
          </div>
          {call.error.state === 'observed' ? (
            <div class="error">
              protocol error <JsonBlock value={call.error.value} />
            </div>
          ) : null}
        </article>
      ))}
    </div>
  );
}
