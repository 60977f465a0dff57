import { isJsonObject, type LintableTool } from './LintableTool';

/** One string of a tool and where it sits. */
export interface ToolString {
  readonly field: string;
  readonly text: string;
}

const PROSE_KEYS: ReadonlySet<string> = new Set(['description', 'title']);
const MAX_DEPTH = 32;

function pathOf(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  const plain = /^[A-Za-z_$][\w$-]*$/.test(key) ? key : JSON.stringify(key);
  return parent === '' ? plain : /^[A-Za-z_$]/.test(plain) ? `${parent}.${plain}` : `${parent}[${plain}]`;
}

function walk(value: unknown, field: string, depth: number, out: ToolString[], proseOnly: boolean, key: string): void {
  if (depth > MAX_DEPTH) return;
  if (typeof value === 'string') {
    if (!proseOnly || PROSE_KEYS.has(key)) out.push({ field, text: value });
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((item, i) => walk(item, pathOf(field, i), depth + 1, out, proseOnly, key));
    return;
  }
  if (!isJsonObject(value)) return;
  for (const [k, v] of Object.entries(value)) {
    // Property names are text the model reads too.
    if (!proseOnly && field !== '') out.push({ field: `${pathOf(field, k)} (key)`, text: k });
    walk(v, pathOf(field, k), depth + 1, out, proseOnly, k);
  }
}

/**
 * Every string a model is shown for this tool (name, title, description, annotations, schemas
 * with their property names, enums and defaults), with its path.
 */
export function allToolStrings(tool: LintableTool): ToolString[] {
  const out: ToolString[] = [];
  walk(tool, '', 0, out, false, '');
  return out;
}

/**
 * The prose of a tool: its `description` and `title`, and every `description` / `title` inside its
 * annotations and schemas (where poisoned parameters hide their instructions).
 */
export function proseToolStrings(tool: LintableTool): ToolString[] {
  const out: ToolString[] = [];
  walk(tool, '', 0, out, true, '');
  return out;
}
