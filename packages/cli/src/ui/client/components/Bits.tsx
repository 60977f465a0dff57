// Small pieces every view uses: a status badge, a rate with its interval, a JSON block, an
// Observation (a value, or the state saying why it is not there), a load state.
import type { ComponentChildren } from 'preact';
import { interval, jsonText, percent } from '../format';
import type { Loaded } from '../useLoad';

/** A coloured status word (passed, failed, completed, …). */
export function Status({ value }: { value: string | null | undefined }) {
  const text = value ?? 'unfinished';
  return <span class={`status status-${text.replace(/[^a-z_]/g, '')}`}>{text}</span>;
}

/** A pass rate with its interval and counts. */
export function Rate({
  rate,
  range,
  passed,
  expected,
}: {
  rate: number | null;
  range?: readonly [number, number] | null;
  passed?: number;
  expected?: number;
}) {
  return (
    <span class="rate">
      <strong>{percent(rate)}</strong> <span class="muted">{interval(range)}</span>
      {passed !== undefined && expected !== undefined ? (
        <span class="muted">
          {' '}
          {passed}/{expected}
        </span>
      ) : null}
    </span>
  );
}

/** A JSON value as preformatted text (never as markup). */
export function JsonBlock({ value }: { value: unknown }) {
  return <pre class="json">{jsonText(value)}</pre>;
}

/** An observation `{ state, value, reason }`: the value when observed, else its state and reason. */
export function Observed({
  obs,
  render,
}: {
  obs: { state: string; value: unknown; reason?: string } | null | undefined;
  render?: (value: unknown) => ComponentChildren;
}) {
  if (!obs) return <span class="muted">–</span>;
  if (obs.state !== 'observed' && obs.state !== 'truncated' && obs.state !== 'redacted') {
    return (
      <span class={`observation observation-${obs.state}`} title={obs.reason ?? ''}>
        {obs.state}
        {obs.reason ? <span class="muted"> ({obs.reason})</span> : null}
      </span>
    );
  }
  return (
    <span>
      {obs.state !== 'observed' ? <span class={`observation observation-${obs.state}`}>{obs.state} </span> : null}
      {render ? render(obs.value) : <JsonBlock value={obs.value} />}
    </span>
  );
}

/** Renders a load's state, or its data through `children`. */
export function Loading<T>({ state, children }: { state: Loaded<T>; children: (data: T) => ComponentChildren }) {
  if (state.status === 'loading') return <p class="muted">Loading…</p>;
  if (state.status === 'error') return <p class="error">{state.message}</p>;
  return <>{children(state.data)}</>;
}

/** A titled section. */
export function Section({ title, id, children }: { title: string; id?: string; children: ComponentChildren }) {
  return (
    <section id={id}>
      <h2>{title}</h2>
      {children}
    </section>
  );
}
