// Who ran an execution: the runtime kind, the agent CLI and its version, its session/thread id,
// the model and the usage it reported. A fact the source did not give shows its Observation state.
import type { Observation, UsageValue, TraceRuntime } from '@sf-m3/core';
import { runtimeFacts } from '../../shape/runtimeFacts';
import { Observed } from '../components/Bits';

/** The runtime table of the execution view. */
export function RuntimePanel({ runtime, usage }: { runtime: TraceRuntime; usage: Observation<UsageValue> }) {
  return (
    <table class="facts" data-testid="runtime">
      <tbody>
        {runtimeFacts(runtime, usage).map((fact) => (
          <tr key={fact.key} data-fact={fact.key}>
            <th>{fact.label}</th>
            <td>
              <Observed obs={fact.obs} render={(v) => <code>{String(v)}</code>} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
