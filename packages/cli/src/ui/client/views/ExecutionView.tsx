// The execution view: the record and its labels, who ran it (runtime, agent CLI and version,
// session, model, usage), tool calls (wire vs reported), messages and reasoning, protocol errors,
// processes and their redacted stderr, evaluations, the whole timeline and the raw evidence.
import type {
  DiagnosticEntry,
  MessageEntry,
  ProcessEntry,
  ProtocolEntry,
  RawMessageEntry,
  ReasoningEntry,
  ToolCallEntry,
  TraceEntry,
} from '@sf-m3/core';
import { apiPaths } from '../../api/apiPaths';
import type { ExecutionPage } from '../../api/executionPage';
import type { ExecutionFailure } from '../../shape/executionFailure';
import { labelPairs } from '../../shape/labelPairs';
import { limitationNotes } from '../../shape/limitationNotes';
import { JsonBlock, Loading, Observed, Section, Status } from '../components/Bits';
import { CassetteBadge } from '../components/CassetteBadge';
import { duration, instant } from '../format';
import { href } from '../route';
import { useLoad } from '../useLoad';
import { EvaluationRows } from './EvaluationRows';
import { Evidence } from './Evidence';
import { Reasoning } from './Reasoning';
import { RuntimePanel } from './RuntimePanel';
import { ToolCalls } from './ToolCalls';

/** The execution view. */
export function ExecutionView({ executionId }: { executionId: string }) {
  const state = useLoad<ExecutionPage>(apiPaths.execution(executionId));
  return <Loading state={state}>{(page) => <Execution page={page} />}</Loading>;
}

function ofKind<K extends TraceEntry['kind']>(
  timeline: readonly TraceEntry[],
  kind: K,
): Extract<TraceEntry, { kind: K }>[] {
  return timeline.filter((e): e is Extract<TraceEntry, { kind: K }> => e.kind === kind);
}

function Execution({ page }: { page: ExecutionPage }) {
  const { execution, trace } = page;
  const timeline = trace?.timeline ?? [];
  const protocolErrors = ofKind(timeline, 'protocol').filter((p: ProtocolEntry) => p.error.state === 'observed');
  return (
    <>
      <p class="crumbs">
        <a href={href.runs()}>all runs</a>
        {execution.runId ? (
          <>
            {' · '}
            <a href={href.run(execution.runId)} data-testid="back-to-run">
              ← run {execution.runId}
            </a>
          </>
        ) : null}
      </p>
      <h1>
        Execution <code>{execution.executionId}</code> <Status value={execution.outcome} />
        <CassetteBadge labels={execution.labels} />
      </h1>
      <p>
        {execution.kind} · case {execution.caseId ?? '–'} · suite {execution.suiteName ?? '–'} · created{' '}
        {instant(execution.createdAt)} · finished {instant(execution.finishedAt)}
      </p>
      <p class="labels" data-testid="labels">
        {labelPairs(execution.labels).map(({ key, value }) => (
          <span key={key} class="label">
            {key}={value}
          </span>
        ))}
      </p>
      {page.failure ? <Failure failure={page.failure} attempt={page.attempt} /> : null}
      {trace === null ? (
        <p class="error">{page.traceError}</p>
      ) : (
        <div class="muted" data-testid="trace-completeness">
          trace {trace.completeness}
          {trace.limitations.length > 0 ? '; limitations:' : ''}
          {trace.limitations.length > 0 ? (
            <ul class="limitations">
              {limitationNotes(trace.limitations, trace.runtime.kind).map(({ limitation, note }) => (
                <li key={limitation}>
                  <code>{limitation}</code>: {note}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      )}

      {trace === null ? null : (
        <Section title="Runtime" id="runtime">
          <RuntimePanel runtime={trace.runtime} usage={trace.summary.usage} />
        </Section>
      )}

      <Section title="Tool calls" id="tool-calls">
        <ToolCalls calls={ofKind(timeline, 'tool_call') as ToolCallEntry[]} direct={execution.kind === 'direct'} />
      </Section>

      <Section title="Messages and reasoning" id="messages">
        <ol class="messages" data-testid="messages">
          {timeline
            .filter((e): e is MessageEntry | ReasoningEntry => e.kind === 'message' || e.kind === 'reasoning')
            .map((e) =>
              e.kind === 'message' ? (
                <li key={e.entryId} class={`message role-${e.role}`}>
                  <strong>{e.role}</strong> <span class="muted">{duration(e.startMs)}</span>
                  <pre class="text">{e.text}</pre>
                </li>
              ) : (
                <Reasoning key={e.entryId} entry={e} />
              ),
            )}
        </ol>
      </Section>

      <Section title="Protocol errors" id="protocol-errors">
        {protocolErrors.length === 0 && page.failure?.operationErrors.some((e) => e.code === 'protocol_error') ? (
          <p class="muted">
            None on the wire: the operation errors above were raised by the client before or without a JSON-RPC error
            response.
          </p>
        ) : protocolErrors.length === 0 ? (
          <p class="muted">None.</p>
        ) : (
          <ul>
            {protocolErrors.map((p) => (
              <li key={p.entryId}>
                <code>{p.protocol}</code> <Observed obs={p.method} render={(v) => String(v)} />{' '}
                <JsonBlock value={p.error.value} />
              </li>
            ))}
          </ul>
        )}
        {ofKind(timeline, 'diagnostic').map((d: DiagnosticEntry) => (
          <p key={d.entryId} class="diagnostic">
            <code>{d.code}</code> {d.message}
          </p>
        ))}
      </Section>

      <Section title="Processes" id="processes">
        {ofKind(timeline, 'process').map((p: ProcessEntry) => (
          <div key={p.entryId} class="process">
            <Observed obs={p.executable} render={(v) => <code>{String(v)}</code>} /> pid{' '}
            <Observed obs={p.pid} render={(v) => String(v)} /> exit{' '}
            <Observed obs={p.exitCode} render={(v) => String(v)} /> signal{' '}
            <Observed obs={p.signal} render={(v) => String(v)} />
            <div>
              stderr (redacted):{' '}
              <Observed obs={p.stderr} render={(v) => <pre class="text">{(v as { preview: string }).preview}</pre>} />
            </div>
          </div>
        ))}
      </Section>

      <Section title="Evaluations" id="evaluations">
        <EvaluationRows evaluations={page.evaluations} />
      </Section>

      <Section title="Timeline" id="timeline">
        <table class="grid timeline" data-testid="timeline">
          <thead>
            <tr>
              <th>Start</th>
              <th>End</th>
              <th>Kind</th>
              <th>Status</th>
              <th>Turn</th>
              <th>Server</th>
            </tr>
          </thead>
          <tbody>
            {timeline.map((e) => (
              <tr key={e.entryId}>
                <td>{duration(e.startMs)}</td>
                <td>{duration(e.endMs)}</td>
                <td>{e.kind}</td>
                <td>{e.status}</td>
                <td class="muted">{e.turnId?.slice(0, 14) ?? ''}</td>
                <td>{e.server ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Section>

      <Section title="Raw evidence" id="evidence">
        <Evidence executionId={execution.executionId} frames={ofKind(timeline, 'raw_message') as RawMessageEntry[]} />
      </Section>
    </>
  );
}

/** Why the execution did not complete, its operation errors and what the test around it did. */
function Failure({ failure, attempt }: { failure: ExecutionFailure; attempt: ExecutionPage['attempt'] }) {
  return (
    <div class={`failure-reason context-${failure.context}`} data-testid="failure-reason">
      <p>
        <strong>Why {failure.outcome}:</strong>{' '}
        {failure.reason ? (
          <>
            <code>{failure.reason.code}</code> {failure.reason.message}
          </>
        ) : (
          <span class="muted">no reason was stored with this execution</span>
        )}
      </p>
      <p data-testid="failure-context">
        {failure.note}
        {attempt ? (
          <>
            {' '}
            Test: <em>{attempt.fullName}</em> <Status value={attempt.outcome ?? 'running'} />
          </>
        ) : null}
      </p>
      {failure.operationErrorCount > 1 ||
      (failure.operationErrors.length === 1 && failure.operationErrors[0]!.message !== failure.reason?.message) ? (
        <>
          <p>
            Operation errors ({failure.operationErrorCount}
            {failure.operationErrorCount > failure.operationErrors.length
              ? `, the first ${failure.operationErrors.length} listed`
              : ''}
            ):
          </p>
          <ol data-testid="operation-errors">
            {failure.operationErrors.map((e, i) => (
              <li key={i}>
                <code>{e.code}</code> {e.message}
              </li>
            ))}
          </ol>
        </>
      ) : null}
    </div>
  );
}
