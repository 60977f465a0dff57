#!/usr/bin/env node
// Bundles the viewer's front-end (src/ui/client: Preact + uPlot + styles) with esbuild into
// dist/ui/client/viewer.js and viewer.css, shipped in the package: no CDN, no network at run time.
'use strict';

const path = require('node:path');
const { spawnSync } = require('node:child_process');
const esbuild = require('esbuild');

const root = path.join(__dirname, '..');

// esbuild strips types without checking them: the front-end is type-checked first (DOM lib, Preact JSX).
const check = spawnSync(
  process.execPath,
  [require.resolve('typescript/bin/tsc'), '-p', path.join(root, 'src/ui/client')],
  {
    stdio: 'inherit',
  },
);
if (check.status !== 0) process.exit(1);

esbuild
  .build({
    entryPoints: { viewer: path.join(root, 'src/ui/client/main.tsx') },
    outdir: path.join(root, 'dist/ui/client'),
    bundle: true,
    minify: true,
    format: 'iife',
    platform: 'browser',
    target: ['es2020'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    legalComments: 'eof',
    logLevel: 'warning',
  })
  .catch(() => process.exit(1));
