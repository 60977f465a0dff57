// MCP servers for direct-client tests: in-process fixtures and the v2-era servers.
export * from './directClient';
export * from './v2EraServers';
