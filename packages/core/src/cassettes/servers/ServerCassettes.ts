import type { Redactor } from '../../redaction/Redactor';
import type { CassetteUse } from '../CassetteMode';
import type { CassetteScope } from '../CassetteScope';
import { cassetteUseOf, McpServerTape } from './McpServerTape';

/**
 * What the servers' side needs from an agent execution's cassette (the agent lane's
 * `ExecutionCassette` has this shape): the test's scope, the execution's trial, and where a miss
 * goes so the execution fails with it.
 */
export interface ExecutionCassetteSource {
  readonly cassettes: CassetteScope;
  readonly trial: number;
  noteMiss(error: Error): void;
  /** The execution's volatile strings (temp folders, cwd, HOME) once known; none when absent. */
  volatileStrings?(): readonly string[];
  /** Adds the servers' side to how the execution's traffic was served (`metadata.cassette`). */
  addSide?(side: { use(): CassetteUse | null }): void;
}

/** The test's scope, the selection's trial, the kit's redactor and where misses go. */
export interface ServerCassettesOptions {
  readonly scope: CassetteScope;
  readonly trial: number;
  readonly redactor: Redactor;
  /** Called with the first miss of each server (the execution fails with the first of all). */
  readonly onMiss?: (error: Error) => void;
  /** See `McpServerTapeOptions.volatileStrings`. */
  readonly volatileStrings?: () => readonly string[];
}

/**
 * The MCP servers' side of one agent execution on the cassette (contract §24,
 * `describe.m3(name, { cassettes: { servers: true } })`): one tape per server, `mcp <server> trial
 * <n>`. `miss()` is the first request replay had no answer for; `use()` how the servers were served.
 */
export class ServerCassettes {
  private readonly tapes = new Map<string, McpServerTape>();

  constructor(private readonly options: ServerCassettesOptions) {}

  /**
   * The servers' cassettes of an execution, or null when the test records no servers' side (no
   * cassette, mode `off`, or `servers` not asked for).
   */
  static forExecution(
    cassette: ExecutionCassetteSource | null | undefined,
    redactor: Redactor,
  ): ServerCassettes | null {
    const scope = cassette?.cassettes;
    if (cassette === null || cassette === undefined || scope === undefined || !scope.servers || scope.mode === 'off') {
      return null;
    }
    const servers = new ServerCassettes({
      scope,
      trial: cassette.trial,
      redactor,
      onMiss: (error) => cassette.noteMiss(error),
      volatileStrings: () => cassette.volatileStrings?.() ?? [],
    });
    cassette.addSide?.(servers);
    return servers;
  }

  /** The tape of one server (made on first use; one per server per execution). */
  forServer(serverName: string): McpServerTape {
    let tape = this.tapes.get(serverName);
    if (tape === undefined) {
      tape = new McpServerTape({ ...this.options, serverName });
      this.tapes.set(serverName, tape);
    }
    return tape;
  }

  /** The first request of any server replay had no answer for, or null. */
  miss(): Error | null {
    for (const tape of this.tapes.values()) {
      const miss = tape.miss();
      if (miss !== null) return miss;
    }
    return null;
  }

  /** Exchanges replayed and recorded over every server. */
  counts(): { readonly replayed: number; readonly recorded: number } {
    let replayed = 0;
    let recorded = 0;
    for (const tape of this.tapes.values()) {
      const c = tape.counts();
      replayed += c.replayed;
      recorded += c.recorded;
    }
    return { replayed, recorded };
  }

  /** How the servers' traffic was served; null before any exchange. */
  use(): CassetteUse | null {
    return cassetteUseOf(this.counts());
  }
}
