import { toolLabel } from '../LintableTool';
import { spanOf } from '../textSpan';
import type { ToolLintRule } from '../ToolLintRule';
import type { ToolLintViolation } from '../ToolLintViolation';
import { violation } from '../violation';

/** `duplicate_name`: no two tools of one listing share a name (a client can call only one of them). */
export const duplicateNameRule: ToolLintRule = {
  name: 'duplicate_name',
  summary: 'no two tools share a name',
  check(tools) {
    const out: ToolLintViolation[] = [];
    const first = new Map<string, number>();
    tools.forEach((tool, index) => {
      if (typeof tool.name !== 'string' || tool.name.length === 0) return;
      const seen = first.get(tool.name);
      if (seen === undefined) {
        first.set(tool.name, index);
        return;
      }
      out.push(
        violation(
          toolLabel(tool, index),
          'duplicate_name',
          `tool #${index} has the same name as tool #${seen}, so a client can reach only one of them; rename one`,
          spanOf('name', tool.name, 0, tool.name.length),
        ),
      );
    });
    return out;
  },
};
