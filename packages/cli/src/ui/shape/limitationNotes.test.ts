import { limitationNotes } from './limitationNotes';

test('capture_incomplete on a direct trace says the trace is the decoded messages, not the wire bytes', () => {
  const [note] = limitationNotes(['capture_incomplete'], 'direct');
  expect(note!.limitation).toBe('capture_incomplete');
  expect(note!.note).toContain('every JSON-RPC message sent and received is here');
  expect(note!.note).toContain('byte-exact framing');
});

test('capture_incomplete on an agent trace says the wire capture stopped early', () => {
  expect(limitationNotes(['capture_incomplete'], 'claude_code')[0]!.note).toContain('capture stopped before');
});

test('every limitation the recorders add has its own note, and an unknown one points at the diagnostics', () => {
  const known = [
    'cleanup_failed',
    'partial_trace',
    'persistence_failed',
    'raw_evidence_budget_exceeded',
    'evidence_budget_exhausted',
    'diagnostics_summarized',
  ];
  for (const { limitation, note } of limitationNotes(known, 'direct')) {
    expect({ limitation, generic: note === 'see the diagnostics' }).toEqual({ limitation, generic: false });
  }
  expect(limitationNotes(['something_new'], 'direct')).toEqual([
    { limitation: 'something_new', note: 'see the diagnostics' },
  ]);
});
