// One tool result, unwrapped the same way on the wire and the reported side: its error flag, its
// text, its other blocks and its structured content; a value of another shape as JSON.
import { unwrapResult } from '../../shape/unwrapResult';
import { JsonBlock } from '../components/Bits';

/** A result value (the Observation around it already opened by `Observed`). */
export function ToolResult({ value }: { value: unknown }) {
  const result = unwrapResult(value);
  return (
    <div class="tool-result" data-testid="tool-result">
      {result.isError === true ? <span class="status status-failed">isError</span> : null}
      {result.texts.map((text, i) => (
        <pre key={`t${i}`} class="text">
          {text}
        </pre>
      ))}
      {result.others.map((line, i) => (
        <div key={`o${i}`} class="muted small">
          {line}
        </div>
      ))}
      {result.structured !== undefined ? (
        <>
          <div class="muted small">structuredContent</div>
          <JsonBlock value={result.structured} />
        </>
      ) : null}
      {result.raw !== undefined ? <JsonBlock value={result.raw} /> : null}
      {result.texts.length + result.others.length === 0 &&
      result.structured === undefined &&
      result.raw === undefined ? (
        <span class="muted">empty</span>
      ) : null}
    </div>
  );
}
