import { toolLabel } from '../LintableTool';
import { spanOf } from '../textSpan';
import type { ToolLintRule } from '../ToolLintRule';
import type { ToolLintViolation } from '../ToolLintViolation';
import { violation } from '../violation';

/** The MCP tool-name rule: 1–128 characters of `A-Za-z0-9_.-` (contract §25). */
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,128}$/;
const MAX_NAME = 128;

/** `tool_name`: every name is a string of 1–128 characters from `A-Za-z0-9_.-`. */
export const toolNameRule: ToolLintRule = {
  name: 'tool_name',
  summary: 'names are 1–128 characters of A-Za-z0-9_.-',
  check(tools) {
    const out: ToolLintViolation[] = [];
    tools.forEach((tool, index) => {
      const label = toolLabel(tool, index);
      const name = tool.name;
      if (typeof name !== 'string' || name.length === 0) {
        out.push(violation(label, 'tool_name', 'the tool has no name; give it 1–128 characters of A-Za-z0-9_.-'));
        return;
      }
      if (TOOL_NAME_PATTERN.test(name)) return;
      const bad = /[^A-Za-z0-9_.-]/u.exec(name);
      if (bad !== null) {
        const start = bad.index;
        out.push(
          violation(
            label,
            'tool_name',
            'the name has a character outside A-Za-z0-9_.- (clients may reject or rename the tool); ' +
              'use letters, digits, "_", "-" or "." only',
            spanOf('name', name, start, start + bad[0].length),
          ),
        );
        return;
      }
      out.push(
        violation(
          label,
          'tool_name',
          `the name is ${name.length} characters long, over the limit of ${MAX_NAME}; shorten it`,
          spanOf('name', name, MAX_NAME, name.length),
        ),
      );
    });
    return out;
  },
};
