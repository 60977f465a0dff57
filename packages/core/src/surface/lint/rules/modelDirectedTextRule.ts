import { hiddenKind } from '../hiddenCharacters';
import { toolLabel } from '../LintableTool';
import { MODEL_DIRECTED_PATTERNS } from '../modelDirectedPatterns';
import { spanOf } from '../textSpan';
import { proseToolStrings } from '../toolText';
import type { ToolLintRule } from '../ToolLintRule';
import type { ToolLintViolation } from '../ToolLintViolation';
import { violation } from '../violation';

/** `text` without its invisible characters, and the offset in `text` of each kept code unit. */
function visibleText(text: string): { visible: string; offsets: number[] } {
  let visible = '';
  const offsets: number[] = [];
  for (let i = 0; i < text.length; i += 1) {
    const cp = text.codePointAt(i) as number;
    const width = cp > 0xffff ? 2 : 1;
    if (hiddenKind(text, i) === null) {
      for (let k = 0; k < width; k += 1) {
        visible += text[i + k];
        offsets.push(i + k);
      }
    }
    i += width - 1;
  }
  return { visible, offsets };
}

/**
 * `model_directed_text`: no text addressed to the model rather than describing the tool, by the
 * documented list `MODEL_DIRECTED_PATTERNS` (contract §25), in the tool's and its schemas'
 * descriptions and titles. Invisible characters are skipped, so `ig\u200Bnore` still matches.
 */
export const modelDirectedTextRule: ToolLintRule = {
  name: 'model_directed_text',
  summary: 'no text addressed to the model (hidden orders, concealment, secrets, <IMPORTANT> blocks)',
  check(tools) {
    const out: ToolLintViolation[] = [];
    tools.forEach((tool, index) => {
      for (const { field, text } of proseToolStrings(tool)) {
        const { visible, offsets } = visibleText(text);
        const found: ToolLintViolation[] = [];
        for (const entry of MODEL_DIRECTED_PATTERNS) {
          const match = entry.pattern.exec(visible);
          if (match === null) continue;
          const start = offsets[match.index] as number;
          const end = (offsets[match.index + match[0].length - 1] as number) + 1;
          found.push(
            violation(
              toolLabel(tool, index),
              'model_directed_text',
              `${entry.why} (pattern ${entry.id}); describe what the tool does, never what the model must do besides calling it`,
              spanOf(field, text, start, end),
            ),
          );
        }
        // In reading order, not list order.
        out.push(...found.sort((x, y) => (x.span?.start ?? 0) - (y.span?.start ?? 0)));
      }
    });
    return out;
  },
};
