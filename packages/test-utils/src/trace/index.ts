// Finalized traces built without a server, for tests of every package.
export * from './TraceEventListBuilder';
export * from './traceBuilder';
export * from './agentTraceBuilder';
