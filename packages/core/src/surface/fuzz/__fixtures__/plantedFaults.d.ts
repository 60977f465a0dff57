// Types of the planted-faults server module (plantedFaults.js), for the tests that run it in process.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';

/** The five planted tools' definitions, as `tools/list` gives them. */
export const TOOLS: ReadonlyArray<{ name: string; description: string; inputSchema: Record<string, unknown> }>;

/** A fresh planted-faults server; `crash(message)` is what the crash tool does past n=100. */
export function createPlantedFaultsServer(options: { crash(message: string): Promise<never> }): Server;
