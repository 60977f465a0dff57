// `sf-m3/testing`: offline fixtures for tests (the fake Chat Completions server for judges).
'use strict';

module.exports = require('@sf-m3/core/testing');
