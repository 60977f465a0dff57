// `npm run test:quick`: the `unit` project of jest.config.js alone. The same as
// `jest --selectProjects unit`, except that paths and flags may follow (`npm run test:quick --
// packages/core/src/ids`): --selectProjects would take them as more project names.
'use strict';
const config = require('./jest.config');

module.exports = { ...config, projects: config.projects.filter((project) => project.displayName === 'unit') };
