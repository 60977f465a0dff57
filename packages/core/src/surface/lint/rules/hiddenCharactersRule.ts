import { findHiddenRuns } from '../hiddenCharacters';
import { toolLabel } from '../LintableTool';
import { spanOf } from '../textSpan';
import { allToolStrings } from '../toolText';
import type { ToolLintRule } from '../ToolLintRule';
import type { ToolLintViolation } from '../ToolLintViolation';
import { violation } from '../violation';

/**
 * `hidden_characters`: no zero-width, bidirectional-control, tag, variation-selector, blank-letter,
 * control or other format characters in any string of the tool (contract §25). A model reads them;
 * a person reviewing the tool does not see them.
 */
export const hiddenCharactersRule: ToolLintRule = {
  name: 'hidden_characters',
  summary: 'no zero-width, bidirectional-control, tag or other invisible characters',
  check(tools) {
    const out: ToolLintViolation[] = [];
    tools.forEach((tool, index) => {
      for (const { field, text } of allToolStrings(tool)) {
        for (const run of findHiddenRuns(text)) {
          const count = [...text.slice(run.start, run.end)].length;
          const spelled = run.tagText.length > 0 ? `, and the tag characters spell ${JSON.stringify(run.tagText)}` : '';
          out.push(
            violation(
              toolLabel(tool, index),
              'hidden_characters',
              `${count} invisible character${count === 1 ? '' : 's'} (${run.kinds.join(', ')}) a model reads ` +
                `but a reviewer does not see${spelled}; remove them`,
              spanOf(field, text, run.start, run.end),
            ),
          );
        }
      }
    });
    return out;
  },
};
