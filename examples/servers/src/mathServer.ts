// The deterministic arithmetic server of the upstream toolkit (reference upstream-core.md §7.2):
// overlapping arithmetic tools so an agent can pick from a realistic catalog while evaluators
// check both the answer and the tool that produced it.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { installToolTable, type ExampleTool, type ToolOutcome } from './toolTable';

/** Server name reported in `initialize`. */
export const MATH_SERVER_NAME = 'm3-math-server';

const binary = z.strictObject({ a: z.number(), b: z.number() });
const list = z.strictObject({ values: z.array(z.number()).min(1) });

/** A finite result, or the upstream "invalid arithmetic request" error. */
function arithmetic(compute: () => number): ToolOutcome {
  let value: number;
  try {
    value = compute();
  } catch (error) {
    return { error: `invalid arithmetic request: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (Number.isNaN(value)) return { error: 'invalid arithmetic request: math domain error' };
  if (!Number.isFinite(value)) return { error: 'invalid arithmetic request: numerical result out of range' };
  return { structured: { result: value } };
}

function binaryTool(name: string, description: string, op: (a: number, b: number) => number): ExampleTool {
  return {
    name,
    description,
    input: binary,
    run: (args) => arithmetic(() => op(args.a as number, args.b as number)),
  };
}

function listTool(name: string, description: string, op: (values: number[]) => number): ExampleTool {
  return { name, description, input: list, run: (args) => arithmetic(() => op(args.values as number[])) };
}

function divide(a: number, b: number): number {
  if (b === 0) throw new Error('division by zero');
  return a / b;
}

/** Python's `%`: the remainder takes the sign of the divisor. */
function modulo(a: number, b: number): number {
  if (b === 0) throw new Error('modulo by zero');
  return ((a % b) + b) % b;
}

function squareRoot(value: number): number {
  if (value < 0) throw new Error('math domain error');
  return Math.sqrt(value);
}

/** The math server's tools, in catalog order. */
export function mathTools(): ExampleTool[] {
  return [
    binaryTool('add_tool', 'Add two numbers.', (a, b) => a + b),
    binaryTool('subtract_tool', 'Subtract b from a.', (a, b) => a - b),
    binaryTool('multiply_tool', 'Multiply two numbers.', (a, b) => a * b),
    binaryTool('divide_tool', 'Divide a by b.', divide),
    binaryTool('power_tool', 'Raise a to the power b.', (a, b) => a ** b),
    binaryTool('modulo_tool', 'Return the remainder of a divided by b.', modulo),
    listTool(
      'average_tool',
      'Compute the arithmetic mean of a list of numbers.',
      (v) => v.reduce((s, x) => s + x, 0) / v.length,
    ),
    listTool('min_tool', 'Return the smallest number in a list.', (v) => Math.min(...v)),
    listTool('max_tool', 'Return the largest number in a list.', (v) => Math.max(...v)),
    {
      name: 'sqrt_tool',
      description: 'Return the non-negative square root of a number.',
      input: z.strictObject({ value: z.number() }),
      run: (args) => arithmetic(() => squareRoot(args.value as number)),
    },
  ];
}

/** Creates a fresh math server. Connect it to any SDK server transport. */
export function createMathServer(): McpServer {
  const mcp = new McpServer(
    { name: MATH_SERVER_NAME, version: '1.0.0' },
    { instructions: 'Deterministic arithmetic tools for M3 evaluations', capabilities: { tools: {} } },
  );
  installToolTable(mcp.server, {
    first: mathTools(),
    invalidArguments: (_tool, detail) => `invalid arithmetic request: ${detail}`,
  });
  return mcp;
}
