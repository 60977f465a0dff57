import type { CassetteUse } from '../../cassettes/CassetteMode';
import type { CassetteChannel, CassetteScope } from '../../cassettes/CassetteScope';
import { keyOrReplayPlaceholder } from '../../cassettes/clients/cassetteReplayKey';
import type { Redactor } from '../../redaction/Redactor';

/** What an execution's cassette says when the execution ends. */
export interface ExecutionCassetteOutcome {
  /** How the model traffic was served, or null when none went through the channel. */
  readonly use: CassetteUse | null;
  /** The first request nothing on the cassette answered (mode `replay`), or null. */
  readonly miss: Error | null;
}

/**
 * One agent execution's model channel (contract §24): opened by the driver once it knows its
 * volatile paths (`open`), pointed at by the model client, and settled by the session when the
 * execution ends (`settle`: use and miss, then the proxy is closed).
 */
export class ExecutionCassette {
  private opening: Promise<CassetteChannel> | undefined;
  private channel: CassetteChannel | undefined;
  private readonly misses: Error[] = [];
  private volatile: readonly string[] = [];
  /** Other traffic of the execution on the cassette (the servers' side): folded into `use`. */
  private readonly sides: Array<{ use(): CassetteUse | null }> = [];

  constructor(
    private readonly scope: CassetteScope,
    /** The channel key, e.g. `openai gpt-4o-mini trial 2`. */
    readonly channelKey: string,
    /** Where the traffic goes live: the selection's `baseUrl`, or its harness's default endpoint. */
    readonly upstream: string,
    private readonly redactor: Redactor,
    /** The execution's trial (for channels of its own, e.g. the servers' side). */
    readonly trial: number,
  ) {}

  /** True in mode `replay`: nothing reaches the endpoint, and a missing key gets the placeholder. */
  get replay(): boolean {
    return this.scope.mode === 'replay';
  }

  /** The test's scope (for the servers' side, `scope.tape`). */
  get cassettes(): CassetteScope {
    return this.scope;
  }

  /** The client's key: its own, else the replay placeholder in mode `replay`, else undefined. */
  apiKey(key: string | undefined): string | undefined {
    return keyOrReplayPlaceholder(key, this.scope.mode);
  }

  /**
   * Opens the channel (once; a second call returns the same one). `volatileStrings`: the
   * execution's temp folders, cwd and HOME, which the client may put into its requests.
   */
  open(volatileStrings: readonly string[] = []): Promise<CassetteChannel> {
    if (this.opening === undefined) this.volatile = [...new Set(volatileStrings.filter((s) => s !== ''))];
    this.opening ??= this.scope
      .openChannel({
        channel: this.channelKey,
        upstream: this.upstream,
        volatileStrings: this.volatile,
        redactor: this.redactor,
      })
      .then((channel) => (this.channel = channel));
    return this.opening;
  }

  /** The volatile strings the channel was opened with (the servers' side hides the same ones). */
  volatileStrings(): readonly string[] {
    return this.volatile;
  }

  /** Adds other traffic of the execution on the cassette (the servers' side) to what `use` reports. */
  addSide(side: { use(): CassetteUse | null }): void {
    this.sides.push(side);
  }

  /** Notes a miss from another channel of the execution (the servers' side); the first one wins. */
  noteMiss(error: Error): void {
    this.misses.push(error);
  }

  /**
   * The miss the execution fails with: a server's, else the model channel's. A server's miss comes
   * first when both happened: the model then sees the error answer and asks something not recorded.
   */
  miss(): Error | null {
    return this.misses[0] ?? this.channel?.miss() ?? null;
  }

  /** Reads use and miss, then closes the channel; never throws. */
  async settle(): Promise<ExecutionCassetteOutcome> {
    await this.opening?.catch(() => undefined);
    const outcome = {
      use: combinedUse([this.channel?.use() ?? null, ...this.sides.map((side) => side.use())]),
      miss: this.miss(),
    };
    await this.channel?.close().catch(() => undefined);
    return outcome;
  }
}

/** One use for several channels: null when none was used, the shared use, or `mixed`. */
export function combinedUse(uses: ReadonlyArray<CassetteUse | null>): CassetteUse | null {
  const used = new Set(uses.filter((use): use is CassetteUse => use !== null));
  if (used.size === 0) return null;
  return used.size === 1 ? [...used][0]! : 'mixed';
}
