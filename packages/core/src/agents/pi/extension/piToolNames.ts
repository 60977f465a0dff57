import { createHash } from 'node:crypto';

/** Longest tool name the model APIs Pi talks to accept (OpenAI function names: 64). */
export const MAX_PI_TOOL_NAME = 64;

const SAFE = /^[A-Za-z0-9_-]+$/;
const slug = (text: string, max: number): string => text.replace(/[^A-Za-z0-9_-]+/g, '_').slice(0, max);

/** `mcp_<server slug, 20>_<tool slug, 20>_<12 hex of sha256(server NUL tool)>`: at most 58 characters. */
function hashedName(server: string, tool: string): string {
  const hash = createHash('sha256').update(`${server}\0${tool}`).digest('hex').slice(0, 12);
  return `mcp_${slug(server, 20)}_${slug(tool, 20)}_${hash}`;
}

/**
 * The Pi tool name of an MCP tool: `mcp_<server>_<tool>` when that fits in 64 characters of
 * `[A-Za-z0-9_-]`, else a bounded name with a hash suffix, so the same tool always gets the same name.
 */
export function piToolName(server: string, tool: string): string {
  const plain = `mcp_${server}_${tool}`;
  return plain.length <= MAX_PI_TOOL_NAME && SAFE.test(plain) ? plain : hashedName(server, tool);
}

/**
 * Names for every tool of every server, in order; a plain name two tools would share (server `a_b`
 * tool `c` and server `a` tool `b_c`) goes to the hashed form for the later one.
 */
export function piToolNames(tools: ReadonlyArray<{ server: string; tool: string }>): string[] {
  const taken = new Set<string>();
  return tools.map(({ server, tool }) => {
    let name = piToolName(server, tool);
    if (taken.has(name)) name = hashedName(server, tool);
    taken.add(name);
    return name;
  });
}
