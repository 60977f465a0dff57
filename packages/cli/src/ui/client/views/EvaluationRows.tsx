// The execution view's evaluations: each row says which assertion it is (call site `file:line`,
// and the tool and arguments when recorded), so ten `toHaveToolCall` checks are ten different
// rows; a passed matcher's rationale "ok" is left out rather than repeated.
import type { ExecutionPage } from '../../api/executionPage';
import { Status } from '../components/Bits';
import './evaluationRows.css';

/** The evaluations table of one execution. */
export function EvaluationRows({ evaluations }: { evaluations: ExecutionPage['evaluations'] }) {
  if (evaluations.length === 0) return <p class="muted">None.</p>;
  return (
    <table class="grid" data-testid="evaluations">
      <thead>
        <tr>
          <th>Evaluator</th>
          <th>Assertion</th>
          <th>Status</th>
          <th>Required</th>
          <th>Score</th>
          <th>Rationale</th>
        </tr>
      </thead>
      <tbody>
        {evaluations.map((e) => (
          <tr key={e.evaluationId}>
            <td>{e.evaluator}</td>
            <td class="small assertion">
              <code>{e.assertion || '–'}</code>
            </td>
            <td>
              <Status value={e.status} />
            </td>
            <td>{e.required ? 'yes' : 'no'}</td>
            <td>{e.score ?? '–'}</td>
            <td>{e.status === 'passed' && e.rationale === 'ok' ? '' : (e.rationale ?? '')}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
