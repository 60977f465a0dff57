import { toolLabel } from '../LintableTool';
import { clipPrintable, spanOf } from '../textSpan';
import { descriptorParts, toolDescriptor } from '../toolDescriptor';
import type { ToolListing } from '../ToolListing';
import type { ToolLintRule } from '../ToolLintRule';
import type { ToolLintSpan, ToolLintViolation } from '../ToolLintViolation';
import { violation } from '../violation';

/**
 * How `after` differs from `before` (two descriptors) as seen in `source`, and the span of the
 * changed text in `after`'s description.
 */
export function describeChange(before: string, after: string, source: string): { what: string; span?: ToolLintSpan } {
  const was = descriptorParts(before);
  const now = descriptorParts(after);
  const schemas: string[] = [];
  if (JSON.stringify(was.inputSchema) !== JSON.stringify(now.inputSchema)) schemas.push('inputSchema');
  if (JSON.stringify(was.outputSchema) !== JSON.stringify(now.outputSchema)) schemas.push('outputSchema');
  if (was.description === now.description) return { what: `the ${schemas.join(' and ')} differs from ${source}` };
  const a = typeof was.description === 'string' ? was.description : '';
  const b = typeof now.description === 'string' ? now.description : '';
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix += 1;
  let suffix = 0;
  while (
    suffix < a.length - prefix &&
    suffix < b.length - prefix &&
    a[a.length - 1 - suffix] === b[b.length - 1 - suffix]
  ) {
    suffix += 1;
  }
  const there = a.slice(prefix, a.length - suffix);
  const also = schemas.length > 0 ? ` (so does the ${schemas.join(' and ')})` : '';
  const what =
    `the description differs from ${source}${also}, which had ` +
    (there.length > 0 ? `"${clipPrintable(there)}" in place of this span` : 'no text here');
  return { what, span: spanOf('description', b, prefix, b.length - suffix) };
}

function changeViolation(tool: string, before: string, after: string, source: string): ToolLintViolation {
  const { what, span } = describeChange(before, after, source);
  return violation(
    tool,
    'silent_redefinition',
    `${what}; a tool must keep its description and schemas for the run (a change the user never sees is how a ` +
      '"rug pull" works), so give a changed tool a new name, or a new server version',
    span,
  );
}

/** Tool name → [descriptor, listing] for each distinct earlier descriptor different from `current`. */
function differing(name: string, current: string, listings: readonly ToolListing[]): Array<[string, ToolListing]> {
  const seen = new Set<string>([current]);
  const out: Array<[string, ToolListing]> = [];
  for (const listing of listings) {
    const earlier = listing.descriptors.get(name);
    if (earlier === undefined || seen.has(earlier)) continue;
    seen.add(earlier);
    out.push([earlier, listing]);
  }
  return out;
}

/**
 * `silent_redefinition` (contract §25): a tool whose description or schema differs between two
 * listings of the same server in one run: the tools linted against every earlier listing of that
 * server name seen in this worker, and the `tools/list` responses in the client's trace against the
 * latest of them.
 */
export const silentRedefinitionRule: ToolLintRule = {
  name: 'silent_redefinition',
  summary: "a tool's description and schemas stay the same across listings of its server",
  check(tools, context) {
    const out: ToolLintViolation[] = [];
    const flagged = new Set<string>();
    tools.forEach((tool, index) => {
      if (typeof tool.name !== 'string') return;
      const current = toolDescriptor(tool);
      for (const [earlier, listing] of differing(tool.name, current, context.earlierListings)) {
        out.push(changeViolation(toolLabel(tool, index), earlier, current, listing.source));
        flagged.add(tool.name);
      }
    });
    // The trace's responses are redacted copies: compare them among themselves, newest as the reference.
    const latest = new Map<string, { descriptor: string; listing: ToolListing }>();
    for (const listing of context.traceListings) {
      for (const [name, descriptor] of listing.descriptors) latest.set(name, { descriptor, listing });
    }
    for (const [name, last] of latest) {
      if (flagged.has(name)) continue;
      for (const [earlier, listing] of differing(name, last.descriptor, context.traceListings)) {
        out.push(
          changeViolation(name, earlier, last.descriptor, `${listing.source} (compared with ${last.listing.source})`),
        );
      }
    }
    return out;
  },
};
