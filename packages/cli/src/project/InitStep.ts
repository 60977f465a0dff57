// What one `m3 init` step found and would do. Steps only plan; the command writes every planned
// file after all steps have planned, and writes nothing when a step needs the user.

/** A file a step writes: created when `create`, otherwise replaced with the edited text. */
export interface PlannedWrite {
  /** Path relative to the project folder. */
  readonly path: string;
  readonly content: string;
  readonly create: boolean;
}

/** The outcome of one step's look at the project. */
export interface InitStep {
  /** The step's name as printed: `jest config`, `tsconfig`, `.gitignore`, `starter suite`. */
  readonly step: string;
  /** `change`: it writes `write`; `done`: nothing to do; `blocked`: the user must act (exit 2). */
  readonly state: 'change' | 'done' | 'blocked';
  /** One line: what changed, or why not. */
  readonly message: string;
  /** For `blocked` (and notes on a change): further lines, e.g. the exact line to add. */
  readonly details?: readonly string[];
  readonly write?: PlannedWrite;
}

/** The preset name `m3 init` writes, and the spellings that already mean it. */
export const SF_M3_PRESET = 'sf-m3';
const SF_M3_PRESET_SPELLINGS = new Set([SF_M3_PRESET, 'sf-m3/jest-preset', 'sf-m3/jest-preset.js']);

/** True when a Jest `preset` value names the sf-m3 preset. */
export function isSfM3Preset(value: string): boolean {
  return SF_M3_PRESET_SPELLINGS.has(value);
}
