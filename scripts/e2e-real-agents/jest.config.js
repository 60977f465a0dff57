// Jest config of the opt-in real-agent run (scripts/e2e-real-agents/run.js). Plain JavaScript
// tests against the built dist; never picked up by the root config (its roots exclude scripts/).
'use strict';

/** @type {import('jest').Config} */
module.exports = {
  rootDir: __dirname,
  testEnvironment: 'node',
  testMatch: ['<rootDir>/*.test.js'],
  setupFilesAfterEnv: ['@sf-m3/matchers/extend-expect'],
  testTimeout: 180_000,
  maxWorkers: 1,
};
