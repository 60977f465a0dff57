#!/usr/bin/env node
'use strict';
/**
 * Bundles the stable entry of `@agentclientprotocol/sdk` (ESM-only) into one CommonJS file,
 * `packages/core/vendor/acp-sdk.cjs`, so the `acp` harness can `require` it on Node 20 and under
 * Jest without any configuration. Run by `npm run build` after `tsc -b`. The SDK's licence notice
 * travels with the bundle as its banner.
 */
const { existsSync, readFileSync, mkdirSync } = require('node:fs');
const { dirname, join } = require('node:path');
const esbuild = require('esbuild');

// The package exports no ./package.json: find its folder along Node's lookup paths instead.
const sdkRoot = (require.resolve.paths('@agentclientprotocol/sdk') ?? [])
  .map((dir) => join(dir, '@agentclientprotocol', 'sdk'))
  .find((dir) => existsSync(join(dir, 'package.json')));
if (sdkRoot === undefined) {
  process.stderr.write('bundle-acp-sdk: @agentclientprotocol/sdk is not installed: run npm install\n');
  process.exit(1);
}
const sdkPackageJson = join(sdkRoot, 'package.json');
const sdk = JSON.parse(readFileSync(sdkPackageJson, 'utf8'));
const licence = readFileSync(join(sdkRoot, 'LICENSE'), 'utf8');
const outfile = join(__dirname, '..', 'vendor', 'acp-sdk.cjs');

const options = {
  entryPoints: [join(sdkRoot, 'dist', 'v1', 'stable', 'acp.js')],
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  outfile,
  legalComments: 'inline',
  logLevel: 'warning',
};

// Other packages the bundle pulls in (zod), named with their licences beside the SDK's.
const { metafile } = esbuild.buildSync({ ...options, write: false, metafile: true });
const others = new Set();
for (const input of Object.keys(metafile.inputs)) {
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
  if (match !== null && match[1] !== sdk.name) others.add(match[1]);
}
const otherLines = [...others].sort().map((name) => {
  const pkg = (require.resolve.paths(name) ?? [])
    .map((dir) => join(dir, name, 'package.json'))
    .find((file) => existsSync(file));
  const meta = pkg === undefined ? {} : JSON.parse(readFileSync(pkg, 'utf8'));
  return ` * Also contains ${name} ${meta.version ?? ''} (${meta.license ?? 'see its package'}).`;
});

const banner = [
  '/*!',
  ` * Bundled from ${sdk.name} ${sdk.version} (${sdk.license}), ${sdk.homepage ?? ''}`,
  ' * by packages/core/scripts/bundle-acp-sdk.js. Its licence follows.',
  ...otherLines,
  ' *',
  ...licence.split('\n').map((line) => ` * ${line.replace(/\*\//g, '* /')}`.trimEnd()),
  ' */',
].join('\n');

mkdirSync(dirname(outfile), { recursive: true });
esbuild.buildSync({ ...options, banner: { js: banner } });
process.stdout.write(`bundled ${sdk.name} ${sdk.version} -> ${outfile}\n`);
