import { watch, type FSWatcher } from 'node:fs';
import { rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { CaptureTapeRecorder } from '../../cassettes/servers/CaptureTapeRecorder';
import type { McpServerTape } from '../../cassettes/servers/McpServerTape';
import { TapeReplayEndpoint } from '../../cassettes/servers/TapeReplayEndpoint';
import { newId } from '../../ids';
import { buildProxyCommand } from '../../proxy/buildProxyCommand';
import { CaptureFile } from '../../proxy/CaptureFile';
import { createProxyConfig, writeProxyConfig } from '../../proxy/ProxyConfig';
import type { ProxyToolPolicy } from '../../proxy/toolPolicy';
import type { Redactor } from '../../redaction/Redactor';
import { minimalEnvironment } from '../../servers/minimalEnvironment';
import { commandLineCanaries } from '../../servers/redactCommandLine';
import { resolveConfiguredValues } from '../../servers/resolveConfiguredValues';
import { makePrivateTempDir } from '../../tempfiles/privateTempDir';
import type { StdioServer } from '../../servers/StdioServer';
import type { TraceRecorder } from '../../trace/TraceRecorder';
import { reapProxyProcesses } from './reapProcesses';
import { recordCaptureRecords } from './recordCaptureRecords';
import { WireEventWriter, type WireScope } from './WireEventWriter';

/** The stdio descriptor an agent is given in place of the real server. */
export interface StdioAgentDescriptor {
  name: string;
  command: string;
  args: string[];
  env: Array<{ name: string; value: string }>;
}

/** What a stdio proxy needs from its group. */
export interface StdioWireProxyOptions {
  readonly server: StdioServer;
  readonly policy: ProxyToolPolicy;
  readonly recorder: TraceRecorder;
  readonly redactor: Redactor;
  readonly scope: WireScope;
  /** How long the proxy and the server get to stop after each signal (default 2 s). */
  readonly graceMs?: number;
  /**
   * The server's cassette tape (contract §24, `cassettes: { servers: true }`): replaying, the
   * server is not started and the proxy is answered from the tape; live, every exchange is recorded.
   */
  readonly tape?: McpServerTape;
}

const DEFAULT_GRACE_MS = 2000;

/**
 * One stdio MCP server behind the capture proxy: the real command, its resolved environment
 * (secrets included) and the redaction canaries travel in a one-shot 0600 config file; the agent
 * gets only `node <proxy script> <config path>`. `sync()` turns what the proxy appended to the
 * capture file (in a private 0700 directory) into wire events; `close()` reaps what is left.
 */
export class StdioWireProxy {
  readonly descriptor: StdioAgentDescriptor;
  private readonly capture: CaptureFile;
  private readonly writer: WireEventWriter;
  private readonly executable: string;
  private syncing: Promise<void> = Promise.resolve();
  private proxyPid: number | null = null;
  private serverPid: number | null = null;
  private closing: Promise<boolean> | undefined;
  private watcher: FSWatcher | undefined;
  private syncScheduled = false;
  /** Live with a cassette: records what the capture shows on the server's tape. */
  private readonly tapeRecorder: CaptureTapeRecorder | undefined;

  private constructor(
    private readonly options: StdioWireProxyOptions,
    private readonly captureDir: string,
    private readonly configPath: string,
    capturePath: string,
    private readonly replayEndpoint: TapeReplayEndpoint | undefined,
  ) {
    this.tapeRecorder =
      options.tape !== undefined && replayEndpoint === undefined ? new CaptureTapeRecorder(options.tape) : undefined;
    const { command, args } = buildProxyCommand(configPath);
    this.descriptor = { name: options.server.name, command, args, env: [] };
    this.capture = new CaptureFile(capturePath);
    this.executable = basename(options.server.command);
    this.writer = new WireEventWriter({
      recorder: options.recorder,
      server: options.server.name,
      connectionId: newId('conn'),
      scope: options.scope,
    });
    this.watch();
  }

  /**
   * Records frames as the proxy appends them (inotify/FSEvents on the private capture directory),
   * so events get times and turns close to the wire's; `sync()` still guarantees completeness.
   * Without a working watcher, only explicit `sync()` calls record.
   */
  private watch(): void {
    try {
      this.watcher = watch(this.captureDir, { persistent: false }, () => this.scheduleSync());
      this.watcher.on('error', () => this.unwatch());
    } catch {
      this.watcher = undefined;
    }
  }

  private unwatch(): void {
    try {
      this.watcher?.close();
    } catch {
      // Already closed.
    }
    this.watcher = undefined;
  }

  private scheduleSync(): void {
    if (this.syncScheduled || this.closing !== undefined) return;
    this.syncScheduled = true;
    setImmediate(() => {
      this.syncScheduled = false;
      if (this.closing === undefined) this.sync().catch(() => undefined);
    }).unref();
  }

  /**
   * Resolves the server's env (SecretRefs; secrets become canaries), writes the proxy config and
   * returns the proxy. Throws `TransportStartupError` naming an unset secret variable.
   */
  static async prepare(options: StdioWireProxyOptions): Promise<StdioWireProxy> {
    const { server, redactor } = options;
    const replaying = options.tape?.serving === 'replay';
    // Replaying, no server starts: its environment (and the secrets in it) is never resolved.
    const env = replaying
      ? {}
      : {
          ...minimalEnvironment(),
          ...resolveConfiguredValues(server.env, { redactor, what: 'env', serverName: server.name }),
        };
    for (const canary of commandLineCanaries(server.args)) redactor.addCanary(canary);
    const captureDir = await makePrivateTempDir('sf-m3-wire-');
    let endpoint: TapeReplayEndpoint | undefined;
    try {
      if (replaying) endpoint = await TapeReplayEndpoint.start(options.tape as McpServerTape);
      const capturePath = join(captureDir, 'capture.jsonl');
      const config = createProxyConfig({
        serverName: server.name,
        command: server.command,
        args: [...server.args],
        env,
        inheritEnv: false,
        ...(server.cwd !== undefined && { cwd: server.cwd }),
        capturePath,
        canaries: redactor.canaryValues(),
        toolPolicy: options.policy,
        ...(endpoint !== undefined && { replay: { url: endpoint.url, token: endpoint.token } }),
      });
      const configPath = await writeProxyConfig(config);
      return new StdioWireProxy(options, captureDir, configPath, capturePath, endpoint);
    } catch (error) {
      await endpoint?.close();
      await rm(captureDir, { recursive: true, force: true }).catch(() => undefined);
      throw error;
    }
  }

  /** The server's binding name. */
  get name(): string {
    return this.options.server.name;
  }

  /** The capture file (inside the private directory removed by `close`) and the reported pids. */
  captureInfo(): { server: string; capturePath: string; proxyPid: number | null; serverPid: number | null } {
    return { server: this.name, capturePath: this.capture.path, proxyPid: this.proxyPid, serverPid: this.serverPid };
  }

  /** Records every capture record appended and not recorded yet; calls are serialized. */
  sync(): Promise<void> {
    const next = this.syncing.then(() => this.syncOnce());
    this.syncing = next.catch(() => undefined);
    return next;
  }

  private async syncOnce(): Promise<void> {
    const records = await this.capture.read();
    this.tapeRecorder?.add(records);
    const { startPid, proxyPid } = recordCaptureRecords(this.writer, records, { executable: this.executable });
    if (proxyPid !== null) {
      this.proxyPid = proxyPid;
      this.serverPid = startPid;
    }
  }

  /**
   * Final sync, reap the proxy and the server's process group if still alive, record what the
   * capture could not tell, remove the config (if never consumed) and the capture directory.
   * Resolves false when something could not be cleaned up; never throws; idempotent.
   */
  close(): Promise<boolean> {
    this.closing ??= this.closeOnce();
    return this.closing;
  }

  private async closeOnce(): Promise<boolean> {
    const grace = this.options.graceMs ?? DEFAULT_GRACE_MS;
    let clean = true;
    this.unwatch();
    await this.sync().catch(() => undefined);
    if (this.capture.end === undefined) {
      clean = (await reapProxyProcesses(this.proxyPid, this.serverPid, grace).catch(() => false)) && clean;
      await this.sync().catch(() => undefined);
    }
    if (this.capture.start !== undefined && this.capture.end === undefined) {
      this.writer.diagnostic(
        'capture_incomplete',
        `the capture proxy of ${this.name} was killed before it finished: wire evidence may be missing at the end`,
      );
      this.options.recorder.addLimitation('capture_incomplete');
    }
    if (this.capture.tornTail) {
      this.writer.diagnostic('capture_torn_tail', 'the last capture record was cut off mid-write and is ignored');
    }
    if (this.tapeRecorder !== undefined && this.tapeRecorder.incomplete > 0) {
      this.writer.diagnostic(
        'cassette_incomplete',
        `${this.tapeRecorder.incomplete} frame(s) of ${this.name} exceeded the capture bound and are not on the cassette: a replay misses them`,
      );
    }
    await this.replayEndpoint?.close();
    if (this.capture.malformedLines > 0) {
      this.writer.diagnostic('capture_malformed', `${this.capture.malformedLines} capture line(s) were unreadable`);
    }
    // The config is deleted by the proxy when it starts; remove it if no proxy ever did.
    const configDir = dirname(this.configPath);
    for (const dir of basename(configDir).startsWith('sf-m3-proxy-')
      ? [configDir, this.captureDir]
      : [this.captureDir]) {
      try {
        await rm(dir, { recursive: true, force: true });
      } catch {
        clean = false;
      }
    }
    return clean;
  }
}
