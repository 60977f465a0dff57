// `sf-m3`: what a test writes against, in one place (contract §16) — servers, the kit and its client,
// results and traces, errors, enums, evaluations, judges, stores, matrices, agents, the capture
// proxy, the matchers (pure entry: importing does not call expect.extend), and `describeM3` /
// `testM3` / `m3Kit` / `getM3Kit` for projects with `injectGlobals: false`. Internal helpers are
// not re-exported: our own packages import them from `@sf-m3/core/internal`. The list is pinned by
// e2e/publicSurface.test.ts. Importing this module performs no I/O, and it is light: the SQLite
// store's names are getters that require @sf-m3/store-sqlite on first read, and `@sf-m3/core`
// loads openai, pino, ajv, the MCP SDK client and the agent drivers on first use
// (e2e/lightImport.test.ts fails when a bare require loads one of them).
'use strict';

/** The named exports of `from`, checked: a renamed export fails here, not in a user's test. */
function pick(from, where, names) {
  const picked = {};
  for (const name of names) {
    if (!(name in from)) throw new Error(`sf-m3: ${where} has no export ${name}`);
    picked[name] = from[name];
  }
  return picked;
}

/**
 * Defines `names` of the package `where` on `target` as getters that require it (checking each
 * name, as `pick` does) on the first read of any of them, then become the plain properties `pick`
 * would have made, so the exports behave the same once read.
 */
function defineLazily(target, where, names) {
  const load = () => {
    const picked = pick(require(where), where, names);
    for (const name of names) {
      Object.defineProperty(target, name, {
        value: picked[name],
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return picked;
  };
  for (const name of names) {
    Object.defineProperty(target, name, { enumerable: true, configurable: true, get: () => load()[name] });
  }
}

const core = require('@sf-m3/core');

module.exports = {
  ...pick(core, '@sf-m3/core', [
    // servers
    'StdioServer',
    'HTTPServer',
    'InProcessServer',
    'secretFromEnv',
    // the kit, its direct client and its specs
    'MCPTestKit',
    'DirectClient',
    'DirectSpec',
    'CallTool',
    'ListTools',
    'ReadResource',
    'GetPrompt',
    'Ping',
    'kitOf',
    // results and traces
    'TraceResult',
    'TraceView',
    'readToolCall',
    'ExecutionHandle',
    // errors
    'M3Error',
    'ModelValidationError',
    'TransportError',
    'TransportStartupError',
    'TransportConnectionError',
    'AuthenticationError',
    'AuthenticationStep',
    'EndpointTrustError',
    'ProtocolError',
    'ProtocolVersionError',
    'OperationTimeout',
    'OperationCancelled',
    'KitClosed',
    'ClientNotReady',
    'TraceNotFinalized',
    'TraceUnavailable',
    'ExecutionNotFound',
    'RequiredEvaluationError',
    'UnsupportedFeature',
    'RawEvidenceUnavailable',
    'RawEvidenceIntegrityError',
    'StoreError',
    'StoreSchemaError',
    'CassetteMissError',
    // enums (frozen)
    'ActivityHealth',
    'AttemptOutcome',
    'EvaluationStatus',
    'EventKind',
    'ExecutionLifecycle',
    'ExecutionOutcome',
    'JudgeErrorCode',
    'ObservationState',
    'RuntimeKind',
    'ToolCallStatus',
    'TraceCompleteness',
    'TransportKind',
    'TrustLevel',
    // evaluations and judges
    'EvaluationEngine',
    'LLMJudge',
    // stores
    'InMemoryExecutionStore',
    // matrices
    'ToolMatrix',
    'ServerCase',
    'ToolCase',
    'ToolMatrixCase',
    // agents
    'AgentSpec',
    'AgentSession',
    'AgentSelection',
    // the MCP capture proxy
    'CaptureFile',
    'buildProxyCommand',
    'createProxyConfig',
    'writeProxyConfig',
    // redaction
    'Redactor',
    'REDACTED',
  ]),
  ...pick(require('@sf-m3/matchers'), '@sf-m3/matchers', ['m3Matchers']),
  ...pick(require('@sf-m3/jest-environment/dist/runtime.js'), '@sf-m3/jest-environment', [
    'describeM3',
    'testM3',
    'm3Kit',
    'getM3Kit',
  ]),
};

// The SQLite store loads on first use; a test that never names it does not pay for it.
defineLazily(module.exports, '@sf-m3/store-sqlite', ['SQLiteExecutionStore', 'SCHEMA_VERSION']);
