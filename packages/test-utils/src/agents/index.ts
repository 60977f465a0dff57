// Harness fixtures for agent tests: the ACP example agent, Claude Code and Codex fakes.
export * from './acpHarness';
export * from './claudeCode';
export * from './codexHarness';
