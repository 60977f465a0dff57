// The top of the run view: what failed, and why. Each failed test with its message, links to its
// executions, and the m3 assertions in them that did not pass (named by call site), above every
// table; then the required evaluations that did not pass. Nothing is shown for a passing run.
import type { RunPage } from '../../api/runPage';
import { assertionText } from '../../shape/assertionLabel';
import { caseLabel } from '../../shape/caseLabel';
import { Status } from '../components/Bits';
import { href } from '../route';
import './failedFirst.css';

/** The failed tests and required failures of a run, first on the page. */
export function FailedTests({ page }: { page: RunPage }) {
  const { summary, failedTests } = page;
  const required = summary.requiredFailures;
  if (summary.failedTests.length === 0 && required.length === 0) return null;
  const hidden = summary.failedTests.length - failedTests.length;
  return (
    <section id="failed-tests" class="failed-first" data-testid="failed-tests">
      <h2>
        {summary.failedTests.length} failed test{summary.failedTests.length === 1 ? '' : 's'}
        {required.length > 0 ? `, ${required.length} required evaluation(s) not passed` : ''}
      </h2>
      <ol class="failed-list">
        {failedTests.map((t) => (
          <li key={`${t.testPath} ${t.fullName}`} class="failed-test" data-testid="failed-test">
            <div class="failed-name">
              <strong>{t.caseId ? caseLabel(t.caseId) : t.fullName}</strong>{' '}
              <span class="muted small">{t.testPath}</span>
            </div>
            {t.message ? <div class="failure-line">{t.message}</div> : null}
            {t.failedAssertions.length > 0 ? (
              <ul class="failed-assertions" data-testid="failed-assertions">
                {t.failedAssertions.map((a) => (
                  <li key={a.evaluationId}>
                    <code>{a.evaluator}</code> <Status value={a.status} />{' '}
                    <span class="site">{assertionText(a.label) || 'call site not recorded'}</span>
                    {a.executionId ? (
                      <>
                        {' '}
                        <a href={href.execution(a.executionId)}>execution</a>
                      </>
                    ) : null}
                  </li>
                ))}
              </ul>
            ) : null}
            <div class="small">
              {t.executions.length === 0 ? (
                <span class="muted">no execution recorded</span>
              ) : (
                t.executions.map((e) => (
                  <span key={e.executionId} class="exec-link">
                    <a href={href.execution(e.executionId)}>{e.executionId.slice(0, 18)}</a>{' '}
                    <Status value={e.outcome} />{' '}
                  </span>
                ))
              )}
            </div>
            {t.failureMessage && t.failureMessage !== t.message ? (
              <details>
                <summary>whole message</summary>
                <pre class="failure">{t.failureMessage}</pre>
              </details>
            ) : null}
          </li>
        ))}
      </ol>
      {hidden > 0 ? <p class="muted">… and {hidden} more in the attempts below.</p> : null}
      {required.length > 0 ? (
        <ul data-testid="required-failures-top">
          {required.slice(0, 20).map((f, i) => (
            <li key={i}>
              required <code>{f.evaluator}</code> <Status value={f.status} /> {f.caseId ? caseLabel(f.caseId) : ''}{' '}
              {f.executionId ? <a href={href.execution(f.executionId)}>execution</a> : null}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
