// The run view: suites, attempts with their failure messages, evaluators (rate, interval, counts,
// required failures), per harness / model / case rates, the baseline comparison (pass rates and
// the tool-catalog interface changes), surface coverage per server, and the run's executions page
// by page.
import { useState } from 'preact/hooks';
import { apiPaths } from '../../api/apiPaths';
import type { ExecutionsPage } from '../../api/executionsPage';
import type { RunPage } from '../../api/runPage';
import type { AgentGroupStats } from '../../../summary/RunSummary';
import { Loading, Rate, Section, Status } from '../components/Bits';
import { CassetteBadge } from '../components/CassetteBadge';
import { duration, instant } from '../format';
import { href } from '../route';
import { useLoad } from '../useLoad';
import { BaselineSection } from './BaselineSection';
import { caseLabel } from '../../shape/caseLabel';
import { FailedTests } from './FailedTests';
import { StaticReportNote } from './StaticReportNote';
import { SurfaceSection } from './SurfaceSection';

/** The run view. */
export function RunView({ runId }: { runId: string }) {
  const state = useLoad<RunPage>(apiPaths.run(runId));
  return <Loading state={state}>{(page) => <Run page={page} />}</Loading>;
}

function Run({ page }: { page: RunPage }) {
  const { summary } = page;
  return (
    <>
      <p class="crumbs">
        <a href={href.runs()}>← all runs</a> · <a href={href.trends()}>trends</a>
      </p>
      <h1>
        Run <code>{summary.runId}</code> <Status value={summary.status} />
      </h1>
      <p>
        Verdict <Status value={summary.verdict} /> · started {instant(summary.startedAt)} · finished{' '}
        {instant(summary.finishedAt)}
        {summary.label ? ` · ${summary.label}` : ''}
      </p>
      {summary.reasons.length > 0 ? (
        <ul class="reasons">
          {summary.reasons.map((r) => (
            <li key={r}>{r}</li>
          ))}
        </ul>
      ) : null}
      <FailedTests page={page} />
      <StaticReportNote />

      <Section title="Suites">
        <table class="grid">
          <thead>
            <tr>
              <th>Suite</th>
              <th>Attempts</th>
              <th>Passed</th>
              <th>Failed</th>
              <th>Skipped</th>
              <th>Todo</th>
            </tr>
          </thead>
          <tbody>
            {summary.suites.map((s) => (
              <tr key={s.name}>
                <td>{s.name}</td>
                <td>{s.attempts.total}</td>
                <td>{s.attempts.passed}</td>
                <td>{s.attempts.failed}</td>
                <td>{s.attempts.skipped}</td>
                <td>{s.attempts.todo}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Section>

      <Section title="Evaluators" id="evaluators">
        <table class="grid" data-testid="evaluators">
          <thead>
            <tr>
              <th>Evaluator</th>
              <th>Pass rate [95% interval] passed/expected</th>
              <th>Statuses</th>
              <th>Required missing</th>
              <th>Required pending</th>
            </tr>
          </thead>
          <tbody>
            {summary.evaluations.map((e) => (
              <tr key={e.evaluator}>
                <td>{e.evaluator}</td>
                <td>
                  <Rate rate={e.passRate} range={e.interval} passed={e.passed} expected={e.expected} />
                </td>
                <td class="muted">
                  {Object.entries(e.statusCounts)
                    .filter(([, n]) => n > 0)
                    .map(([k, n]) => `${k} ${n}`)
                    .join(', ')}
                </td>
                <td>{e.missingRequired}</td>
                <td>{e.pendingRequired}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {summary.requiredFailures.length > 0 ? (
          <>
            <h3>Required evaluations that did not pass</h3>
            <ul data-testid="required-failures">
              {summary.requiredFailures.map((f, i) => (
                <li key={i}>
                  <code>{f.evaluator}</code> <Status value={f.status} /> {f.caseId ?? ''}{' '}
                  {f.executionId ? <a href={href.execution(f.executionId)}>execution</a> : null} {f.rationale ?? ''}
                </li>
              ))}
            </ul>
          </>
        ) : null}
      </Section>

      {summary.agents ? (
        <Section title="Per harness, model and case">
          <GroupTable title="harness" rows={summary.agents.byHarness} label={(g) => g.harness} />
          <GroupTable
            title="model"
            rows={summary.agents.byModel}
            label={(g) => `${g.harness ?? ''}:${g.model ?? ''}`}
          />
        </Section>
      ) : null}
      <Section title="Per case">
        <p class="muted">
          {page.caseRates.length === 0
            ? 'Every evaluator passed on every case'
            : 'Evaluator × case pairs that did not all pass, worst first'}
          {page.caseRatesAllPassed > 0 ? `; ${page.caseRatesAllPassed} pair(s) where all passed are not listed.` : '.'}
        </p>
        <table class="grid" data-testid="case-rates">
          <thead>
            <tr>
              <th>Evaluator</th>
              <th>Case</th>
              <th>Pass rate</th>
            </tr>
          </thead>
          <tbody>
            {page.caseRates.map((c) => (
              <tr key={`${c.evaluator} ${c.caseId ?? ''}`}>
                <td>{c.evaluator}</td>
                <td>{c.caseId ? caseLabel(c.caseId) : '–'}</td>
                <td>
                  <Rate rate={c.passRate} range={c.interval} passed={c.passed} expected={c.expected} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Section>

      <BaselineSection summary={summary} />

      <SurfaceSection runId={summary.runId} />

      <Section title={`Attempts (${page.attempts.length})`} id="attempts">
        <table class="grid" data-testid="attempts">
          <thead>
            <tr>
              <th>Test</th>
              <th>Outcome</th>
              <th>Retry</th>
              <th>Duration</th>
              <th>Executions</th>
            </tr>
          </thead>
          <tbody>
            {page.attempts.map((a) => (
              <tr key={a.attemptId}>
                <td>
                  {a.fullName}
                  <div class="muted small">{a.testPath}</div>
                  {a.failureMessage ? <pre class="failure">{a.failureMessage}</pre> : null}
                </td>
                <td>
                  <Status value={a.outcome} />
                </td>
                <td>{a.retryIndex}</td>
                <td>{duration(a.durationMs)}</td>
                <td>
                  {a.executionIds.map((id) => (
                    <div key={id}>
                      <a href={href.execution(id)}>{id.slice(0, 18)}</a>
                    </div>
                  ))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Section>

      <Executions runId={summary.runId} total={page.executionCount} />
    </>
  );
}

function GroupTable({
  title,
  rows,
  label,
}: {
  title: string;
  rows: AgentGroupStats[];
  label: (g: AgentGroupStats) => string | null;
}) {
  return (
    <table class="grid">
      <thead>
        <tr>
          <th>Evaluator</th>
          <th>{title}</th>
          <th>Pass rate</th>
          <th>Cases all / any passed</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((g, i) => (
          <tr key={i}>
            <td>{g.evaluator}</td>
            <td>{label(g) ?? '–'}</td>
            <td>
              <Rate rate={g.passRate} range={g.interval} passed={g.passed} expected={g.expected} />
            </td>
            <td>
              {g.casesAllPassed} / {g.casesAnyPassed} of {g.caseCount}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Executions({ runId, total }: { runId: string; total: number }) {
  const [offset, setOffset] = useState(0);
  const state = useLoad<ExecutionsPage>(apiPaths.executions(runId, offset));
  return (
    <Section title={`Executions (${total})`} id="executions">
      <Loading state={state}>
        {(page) => (
          <>
            <p class="pager">
              {page.offset + 1}–{Math.min(page.offset + page.limit, page.total)} of {page.total}{' '}
              <button disabled={page.offset === 0} onClick={() => setOffset(Math.max(0, page.offset - page.limit))}>
                previous
              </button>{' '}
              <button
                disabled={page.offset + page.limit >= page.total}
                onClick={() => setOffset(page.offset + page.limit)}
              >
                next
              </button>
            </p>
            <table class="grid" data-testid="executions">
              <thead>
                <tr>
                  <th>Execution</th>
                  <th>Kind</th>
                  <th>Outcome</th>
                  <th>Case</th>
                  <th>Harness / model / trial</th>
                  <th>Created</th>
                </tr>
              </thead>
              <tbody>
                {page.executions.map((e) => (
                  <tr key={e.executionId}>
                    <td>
                      <a href={href.execution(e.executionId)}>{e.executionId}</a>
                    </td>
                    <td>{e.kind}</td>
                    <td>
                      <Status value={e.outcome} />
                      <CassetteBadge labels={e.labels} />
                      {e.failureContext === 'raised_in_passing_test' ? (
                        <div class="muted small" data-testid="raised-in-passing-test">
                          an operation raised, as the passing test expected
                        </div>
                      ) : null}
                      {e.failure ? <div class="small failure-line">{e.failure}</div> : null}
                    </td>
                    <td>{e.caseId ? caseLabel(e.caseId) : '–'}</td>
                    <td>{[e.labels.harness, e.labels.model, e.labels.trial].filter(Boolean).join(' / ') || '–'}</td>
                    <td>{instant(e.createdAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        )}
      </Loading>
    </Section>
  );
}
