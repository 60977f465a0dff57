// Whether a concrete resource URI could have come from an advertised URI template (RFC 6570), so a
// `resources/read` of `file:///logs/today.txt` covers the template `file:///logs/{name}` (contract
// §25). A template is compiled once per merge into a regular expression: literal text must match
// exactly, a simple `{var}` matches one non-empty segment without `/`, `{+var}` and `{#var}` match
// anything, and the query and continuation forms (`{?a,b}`, `{&a}`) match an optional query part.

const compiled = new Map<string, RegExp>();

function escapeLiteral(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

function expressionPattern(expression: string): string {
  const operator = expression.charAt(0);
  switch (operator) {
    case '+':
    case '#':
      return '.*';
    case '?':
    case '&':
      return '(?:[?&][^#]*)?';
    case '.':
      return '(?:\\.[^/?#]*)*';
    case '/':
      return '(?:/[^?#]*)*';
    case ';':
      return '(?:;[^/?#]*)*';
    default:
      return '[^/?#]+';
  }
}

/** The regular expression a URI template compiles to (cached). */
export function uriTemplatePattern(template: string): RegExp {
  const cached = compiled.get(template);
  if (cached !== undefined) return cached;
  let source = '';
  let rest = template;
  for (let open = rest.indexOf('{'); open !== -1; open = rest.indexOf('{')) {
    const close = rest.indexOf('}', open);
    if (close === -1) break;
    source += escapeLiteral(rest.slice(0, open)) + expressionPattern(rest.slice(open + 1, close));
    rest = rest.slice(close + 1);
  }
  const pattern = new RegExp(`^${source}${escapeLiteral(rest)}$`);
  compiled.set(template, pattern);
  return pattern;
}

/** True when `uri` is an expansion of `template`. */
export function uriTemplateMatches(template: string, uri: string): boolean {
  return uriTemplatePattern(template).test(uri);
}
