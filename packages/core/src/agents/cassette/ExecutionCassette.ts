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
    this.opening ??= this.scope
      .openChannel({
        channel: this.channelKey,
        upstream: this.upstream,
        volatileStrings: [...new Set(volatileStrings.filter((s) => s !== ''))],
        redactor: this.redactor,
      })
      .then((channel) => (this.channel = channel));
    return this.opening;
  }

  /** Notes a miss from another channel of the execution (the servers' side); the first one wins. */
  noteMiss(error: Error): void {
    this.misses.push(error);
  }

  /** The first miss so far: the model channel's, else one noted. */
  miss(): Error | null {
    return this.channel?.miss() ?? this.misses[0] ?? null;
  }

  /** Reads use and miss, then closes the channel; never throws. */
  async settle(): Promise<ExecutionCassetteOutcome> {
    await this.opening?.catch(() => undefined);
    const outcome = { use: this.channel?.use() ?? null, miss: this.miss() };
    await this.channel?.close().catch(() => undefined);
    return outcome;
  }
}
