// Lets a plain `node` child process load the TypeScript sources (no build needed): the
// repository's one loader, scripts/registerTypeScript.js.
'use strict';
require('../../../../scripts/registerTypeScript');
