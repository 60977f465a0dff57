// Escaping for the JUnit XML report. Stored text is hostile by nature (test names, failure
// messages and tool output come from the code under test), so every value passes through here:
// markup characters become entities, and characters XML 1.0 cannot carry at all (most C0 controls,
// lone surrogates, U+FFFE/U+FFFF) become U+FFFD instead of making the file unreadable.

// XML 1.0 Char: #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF].
const NOT_XML_CHAR =
  // eslint-disable-next-line no-control-regex -- removing the control characters XML forbids is the point
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** `text` with every character XML 1.0 cannot hold replaced by U+FFFD. */
export function xmlSafeChars(text: string): string {
  return text.replace(NOT_XML_CHAR, '\uFFFD');
}

/** Escapes element text: `&`, `<`, `>` (so `]]>` cannot appear either). */
export function xmlText(text: string): string {
  return xmlSafeChars(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * Escapes an attribute value (written between double quotes): markup characters, both quotes, and
 * tab, newline and carriage return as character references so a parser keeps them instead of
 * normalizing them to spaces.
 */
export function xmlAttribute(text: string): string {
  return xmlText(text)
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
    .replace(/\t/g, '&#9;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;');
}

/** `<name a="…" b="…">` attributes, in order, skipping `null` values. */
export function xmlAttributes(attributes: Record<string, string | number | null>): string {
  return Object.entries(attributes)
    .filter((entry): entry is [string, string | number] => entry[1] !== null)
    .map(([name, value]) => ` ${name}="${xmlAttribute(String(value))}"`)
    .join('');
}
