// Escaping for the Markdown summary. CI job summaries render Markdown and some HTML, and the text
// comes from the code under test, so a test name must not open a link, close a table cell, start
// a heading or inject a tag: HTML characters become entities, Markdown punctuation is escaped with
// a backslash, line breaks (which would end a table row) become spaces, and bare URLs stay text.

// Inline markup anywhere in a line: emphasis, code, links and images, table cells, strikethrough,
// and the backslash itself. `#`, `-`, `+`, `=`, `>` and `1.` only mean something at the start.
const INLINE_MARKUP = /[\\`*_[\]|~!#]/g;
const LEADING_MARKER = /^(\s*)([-+=])/;
const LEADING_NUMBER = /^(\s*\d{1,9})([.)])(?=\s|$)/;
// Bare URLs (`https://…`, `www.…`) become links under GitHub's autolink extension.
const AUTOLINK = /(:)(?=\/\/)|\b(www)(\.)/gi;

/** Plain text safe inside a Markdown paragraph, list item or table cell, on one line. */
export function markdownText(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex -- control characters have no place in a summary
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g, '')
      .replace(/\r\n|\r|\n|\t/g, ' ')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      .replace(INLINE_MARKUP, (c) => `\\${c}`)
      .replace(LEADING_MARKER, '$1\\$2')
      .replace(LEADING_NUMBER, '$1\\$2')
      .replace(AUTOLINK, (_m, colon?: string, www?: string, dot?: string) => (colon ? '\\:' : `${www}\\${dot}`))
  );
}

/** Inline code for identifiers such as run ids: backticks inside fall back to escaped text. */
export function markdownCode(text: string): string {
  return /^[^`\r\n]*$/.test(text) && text.trim() === text && text !== '' ? `\`${text}\`` : markdownText(text);
}

/** A Markdown table; every cell is escaped. */
export function markdownTable(header: readonly string[], rows: readonly (readonly string[])[]): string[] {
  const line = (cells: readonly string[]) => `| ${cells.map(markdownText).join(' | ')} |`;
  return [line(header), `|${header.map(() => ' --- |').join('')}`, ...rows.map(line)];
}
