import type { CassetteExchange } from './CassetteFormat';
import type { CassetteMode } from './CassetteMode';
import type { CassetteChannel, CassetteChannelOptions, CassetteScope } from './CassetteScope';
import { CassetteProxyChannel } from './channel/CassetteProxyChannel';
import { RecordedTape } from './RecordedTape';

/** What a scope needs from its book. */
export interface ScopeSource {
  readonly mode: CassetteMode;
  readonly testPath: string;
  /** The exchanges the cassette file holds for (test, channel); loads the file on first use. */
  recordedExchanges(testName: string, channel: string): readonly CassetteExchange[];
}

/**
 * One attempt of one test (contract §24): one tape per channel key, shared by every channel opened
 * with that key (a judge opens one per call; positions continue).
 */
export class BookScope implements CassetteScope {
  readonly mode: CassetteMode;
  readonly testName: string;
  readonly testPath: string;
  readonly servers: boolean;
  private readonly source: ScopeSource;
  private readonly tapes = new Map<string, RecordedTape>();
  private readonly channels = new Set<CassetteChannel>();

  constructor(source: ScopeSource, testName: string, servers: boolean) {
    this.source = source;
    this.mode = source.mode;
    this.testName = testName;
    this.testPath = source.testPath;
    this.servers = servers;
  }

  async openChannel(options: CassetteChannelOptions): Promise<CassetteChannel> {
    const channel = await CassetteProxyChannel.open({
      ...options,
      mode: this.mode,
      testName: this.testName,
      testPath: this.testPath,
      tape: this.tape(options.channel),
    });
    this.channels.add(channel);
    return channel;
  }

  tape(channel: string): RecordedTape {
    let tape = this.tapes.get(channel);
    if (tape === undefined) {
      const recorded = this.mode === 'off' ? [] : this.source.recordedExchanges(this.testName, channel);
      tape = new RecordedTape(this.mode, recorded);
      this.tapes.set(channel, tape);
    }
    return tape;
  }

  /** The tapes this attempt used, by channel key. */
  usedTapes(): ReadonlyMap<string, RecordedTape> {
    return this.tapes;
  }

  /** Stops every channel this attempt opened that is still running. */
  async closeChannels(): Promise<void> {
    await Promise.all([...this.channels].map((channel) => channel.close()));
  }
}
