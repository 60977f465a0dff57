// Deterministic MCP servers for the sf-m3 examples, tests and benchmarks.
export {
  createExampleServer,
  EXAMPLE_SERVER_NAME,
  TESTING_GUIDE_TEXT,
  normalizeCustomerName,
  shippingAmount,
} from './exampleServer';
export { createMathServer, MATH_SERVER_NAME, mathTools } from './mathServer';
export { runServer, serveHttp, parseServeArgs, type ServeMode, type HttpEndpoint } from './serve';
export {
  installToolTable,
  toolJsonSchema,
  toolError,
  type ExampleTool,
  type ToolOutcome,
  type ToolPages,
} from './toolTable';
export {
  createReleaseServer,
  newReleaseState,
  RELEASE_SERVER_NAME,
  type ReleaseEra,
  type ReleaseState,
} from './releaseServer';
export { runV2Server, serveV2Http, parseV2ServeArgs, type V2ServeMode } from './serveV2';
export { exampleServerBin, mathServerBin, releaseServerBin } from './binPaths';
