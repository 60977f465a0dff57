/** A bad flag or configuration: `m3` prints the message and exits 2. The message names the flag. */
export class UsageError extends Error {
  /** The flag at fault, e.g. `--trials` (or the command when no single flag is). */
  readonly flag: string;

  constructor(flag: string, message: string) {
    super(`${flag}: ${message}`);
    this.name = 'UsageError';
    this.flag = flag;
  }
}
