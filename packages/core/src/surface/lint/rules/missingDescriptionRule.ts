import { toolLabel } from '../LintableTool';
import type { ToolLintRule } from '../ToolLintRule';
import type { ToolLintViolation } from '../ToolLintViolation';
import { violation } from '../violation';

/** `missing_description`: every tool has a non-blank `description` (the model chooses tools by it). */
export const missingDescriptionRule: ToolLintRule = {
  name: 'missing_description',
  summary: 'every tool has a non-blank description',
  check(tools) {
    const out: ToolLintViolation[] = [];
    tools.forEach((tool, index) => {
      const d = tool.description;
      if (typeof d === 'string' && d.trim().length > 0) return;
      const what =
        d === undefined
          ? 'the tool has no description'
          : typeof d === 'string'
            ? 'the description is blank'
            : `the description is a ${d === null ? 'null' : typeof d}, not a string`;
      out.push(
        violation(
          toolLabel(tool, index),
          'missing_description',
          `${what}; a model picks tools by their description, so say what the tool does and when to use it`,
        ),
      );
    });
    return out;
  },
};
