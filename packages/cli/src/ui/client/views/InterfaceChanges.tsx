// The interface changes of a run against its baseline: for each (suite, server) whose `tools/list`
// both runs saw, the tools added, removed (a likely rename named) and changed, with the JSON paths
// where a definition differs; catalogs seen in one run only are listed as not comparable.
import type { InterfaceChanges as Changes, ToolChange } from '../../../summary/RunSummary';

const SIGN = { added: '+', removed: '−', changed: '~' } as const;

/** A schema value as JSON (a string keeps its quotes, so `"zone"` reads as a value). */
function Json({ value }: { value: unknown }) {
  return <code class="json-inline">{JSON.stringify(value)}</code>;
}

function where(c: { suiteName: string | null; server: string }): string {
  return `${c.suiteName ?? '(no suite)'} / ${c.server}`;
}

function renameNote(change: ToolChange): string {
  if (change.renamed === null) return '';
  return change.change === 'removed' ? ` (renamed to ${change.renamed}?)` : ` (renamed from ${change.renamed}?)`;
}

/** The interface-change table of the run view's baseline section. */
export function InterfaceChanges({ changes }: { changes: Changes }) {
  return (
    <div data-testid="interface-changes">
      <h3>Interface changes (tools/list)</h3>
      <p>
        {changes.compared} tool catalog(s) compared: {changes.changes.length} change(s)
        {changes.notComparable.length > 0 ? `, ${changes.notComparable.length} not comparable` : ''}.
      </p>
      {changes.changes.length > 0 ? (
        <table class="grid">
          <thead>
            <tr>
              <th>Suite / server</th>
              <th>Tool</th>
              <th>Change</th>
              <th>Where the definition differs</th>
            </tr>
          </thead>
          <tbody>
            {changes.changes.map((c) => (
              <tr key={`${where(c)} ${c.tool} ${c.change}`} class={`tool-change change-${c.change}`} data-tool={c.tool}>
                <td>{where(c)}</td>
                <td>
                  <code>{c.tool}</code>
                </td>
                <td>
                  {SIGN[c.change]} {c.change}
                  {renameNote(c)}
                  {c.fields.length > 0 ? <div class="muted small">{c.fields.join(', ')}</div> : null}
                </td>
                <td>
                  {c.differences.length === 0 ? (
                    <span class="muted">–</span>
                  ) : (
                    <ul class="differences">
                      {c.differences.map((d, i) => (
                        <li key={i}>
                          <code>{d.path}</code> {d.change}{' '}
                          {d.change === 'changed' ? (
                            <>
                              <Json value={d.before} /> → <Json value={d.after} />
                            </>
                          ) : (
                            <Json value={d.change === 'added' ? d.after : d.before} />
                          )}
                        </li>
                      ))}
                    </ul>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {changes.notComparable.length > 0 ? (
        <ul data-testid="not-comparable">
          {changes.notComparable.map((c) => (
            <li key={`${where(c)} ${c.seenIn}`}>
              {where(c)} listed tools in the {c.seenIn} run only: not comparable
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
