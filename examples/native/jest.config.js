// The opt-in native run of the examples (`npm run e2e:real-agents -- --only math`): the same preset
// and mappings as examples/jest.config.js, only the suites of this folder, and room for real CLIs.
// Not picked up by `npm run examples` (its testMatch is examples/suites).
const examples = require('../jest.config.js');

/** @type {import('jest').Config} */
module.exports = {
  ...examples,
  testMatch: ['<rootDir>/native/**/*.test.ts'],
  // One execution starts a real agent CLI (OpenCode's server, Codex's app-server) and its MCP server.
  testTimeout: 180_000,
};
