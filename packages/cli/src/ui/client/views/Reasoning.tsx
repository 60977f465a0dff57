// One reasoning entry: its text, or the state saying why there is none (`encrypted`,
// `provider_hidden`: the provider sent reasoning the trace cannot show).
import type { ReasoningEntry } from '@sf-m3/core';
import { reasoningText } from '../../shape/reasoningText';
import { JsonBlock } from '../components/Bits';
import { duration } from '../format';

const HIDDEN_NOTES: Record<string, string> = {
  encrypted: 'the provider sent this reasoning encrypted; no text was kept',
  provider_hidden: 'the provider hid this reasoning; no text was kept',
};

/** A reasoning list item of the messages section. */
export function Reasoning({ entry }: { entry: ReasoningEntry }) {
  const shown = reasoningText(entry.content);
  return (
    <li class="message reasoning" data-testid="reasoning" data-state={shown.state}>
      <strong>reasoning</strong> <span class="muted">{duration(entry.startMs)}</span>{' '}
      {shown.state !== 'observed' ? <span class={`observation observation-${shown.state}`}>{shown.state}</span> : null}
      {shown.text === null ? (
        <span class="muted"> {HIDDEN_NOTES[shown.state] ?? `no text (${shown.reason ?? shown.state})`}</span>
      ) : shown.text === '' && shown.opaqueBlocks.length === 0 ? (
        <span class="muted"> (empty reasoning text)</span>
      ) : (
        <>
          {shown.text !== '' ? <pre class="text">{shown.text}</pre> : null}
          {shown.opaqueBlocks.length > 0 ? <JsonBlock value={shown.opaqueBlocks} /> : null}
        </>
      )}
    </li>
  );
}
