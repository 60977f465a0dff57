// The conformance framework's client under test: `node conformance/adapter/dist/main.js <server-url>`
// with MCP_CONFORMANCE_SCENARIO (and for some scenarios MCP_CONFORMANCE_CONTEXT, JSON) in the
// environment, spawned by `npm run conformance` (conformance/run.js). Exits 0 when the scenario's
// client side ran through, 1 when it failed (the framework's checks give the verdict either way).
import { runAuthScenario } from './auth';
import { SCENARIOS } from './scenarios';

/** The parsed `MCP_CONFORMANCE_CONTEXT`, or undefined when the framework gave none. */
function readContext(raw: string | undefined): unknown {
  if (raw === undefined || raw === '') return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    throw new Error('MCP_CONFORMANCE_CONTEXT is not JSON');
  }
}

async function main(): Promise<void> {
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO;
  const serverUrl = process.argv[2];
  if (scenario === undefined || scenario === '' || serverUrl === undefined) {
    throw new Error('usage: MCP_CONFORMANCE_SCENARIO=<scenario> node conformance/adapter/dist/main.js <server-url>');
  }
  if (scenario.startsWith('auth/')) {
    await runAuthScenario(scenario, serverUrl, readContext(process.env.MCP_CONFORMANCE_CONTEXT));
    return;
  }
  const client = SCENARIOS[scenario];
  if (client === undefined) {
    throw new Error(
      `unknown scenario '${scenario}': the adapter knows ${Object.keys(SCENARIOS).join(', ')} and auth/*`,
    );
  }
  await client(serverUrl);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(`conformance adapter: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
    process.exit(1);
  },
);
