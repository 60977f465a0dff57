import type { ServerDefinition } from '../servers/ServerDefinition';

/** The era a server definition was found to speak, per definition, for the rest of the run. */
const found = new WeakMap<ServerDefinition, 'legacy' | 'modern'>();

/**
 * What an earlier `auto` connect in this process found for `server`: a legacy verdict lets the next
 * connect skip the `server/discover` probe and go straight to the handshake (contract §23: a run's
 * second connect costs about a pinned one). Kept per definition object, so a new definition (or a
 * new test process) probes again.
 */
export function cachedEra(server: ServerDefinition): 'legacy' | 'modern' | undefined {
  return found.get(server);
}

/** Remembers the era an `auto` connect found for `server`. */
export function rememberEra(server: ServerDefinition, era: 'legacy' | 'modern'): void {
  found.set(server, era);
}

/** Forgets what was found for `server` (a cached verdict that turned out wrong). */
export function forgetEra(server: ServerDefinition): void {
  found.delete(server);
}
