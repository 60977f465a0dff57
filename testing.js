// `sf-m3/testing`: offline fixtures for tests (the fake model server: Chat Completions, Anthropic Messages, Gemini).
'use strict';

module.exports = require('@sf-m3/core/testing');
