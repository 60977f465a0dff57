// The run view's baseline section: the run it is compared with (the run before it), tests that
// regressed or were fixed, evaluator pass rates then and now, and the tool-catalog interface changes.
import type { RunSummary } from '../../../summary/RunSummary';
import { Section } from '../components/Bits';
import { percent } from '../format';
import { href } from '../route';
import { InterfaceChanges } from './InterfaceChanges';

/** The baseline comparison of a run, or the note saying why there is none. */
export function BaselineSection({ summary }: { summary: RunSummary }) {
  return (
    <Section title="Baseline comparison" id="baseline-comparison">
      {summary.baseline ? (
        <>
          <p>
            Compared with <a href={href.run(summary.baseline.baselineRunId)}>{summary.baseline.baselineRunId}</a>:{' '}
            {summary.baseline.regressedTests.length} regressed, {summary.baseline.fixedTests.length} fixed,{' '}
            {summary.baseline.newTests} new, {summary.baseline.removedTests} removed tests.
          </p>
          <table class="grid" data-testid="baseline">
            <thead>
              <tr>
                <th>Evaluator</th>
                <th>Baseline</th>
                <th>This run</th>
                <th>Change</th>
              </tr>
            </thead>
            <tbody>
              {summary.baseline.evaluators.map((d) => (
                <tr key={d.evaluator} class={d.delta !== null && d.delta < 0 ? 'worse' : ''}>
                  <td>{d.evaluator}</td>
                  <td>{percent(d.baselinePassRate)}</td>
                  <td>{percent(d.currentPassRate)}</td>
                  <td>{d.delta === null ? '–' : `${d.delta > 0 ? '+' : ''}${(d.delta * 100).toFixed(1)} pt`}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <InterfaceChanges changes={summary.baseline.interfaceChanges} />
        </>
      ) : (
        <p class="muted">{summary.baselineNote ?? 'no earlier run to compare with'}</p>
      )}
    </Section>
  );
}
