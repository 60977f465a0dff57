// The viewer's front-end files: the page, and the script and stylesheet esbuild bundled at build
// time (scripts/bundle-viewer.js) into dist/ui/client/. A fixed table: no request path ever
// reaches the file system, so nothing outside these files is served.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** One servable file. */
export interface ViewerAsset {
  contentType: string;
  body: Buffer;
}

/**
 * Where the bundle lives: next to the compiled server (`dist/ui/server` → `dist/ui/client`), or,
 * when this module runs from source (the project's unit tests), in the package's `dist`.
 */
export const CLIENT_BUNDLE_DIRS = [
  join(__dirname, '..', 'client'),
  join(__dirname, '..', '..', '..', 'dist', 'ui', 'client'),
];

/** Reads the bundled script and stylesheet; a missing bundle names the build step. */
export function readClientBundle(dirs: readonly string[] = CLIENT_BUNDLE_DIRS): { script: string; style: string } {
  for (const dir of dirs) {
    if (!existsSync(join(dir, 'viewer.js'))) continue;
    return {
      script: readFileSync(join(dir, 'viewer.js'), 'utf8'),
      style: readFileSync(join(dir, 'viewer.css'), 'utf8'),
    };
  }
  throw new Error(
    `the viewer's front-end bundle is missing from ${dirs[0]}: run \`npm run build\` (it runs packages/cli/scripts/bundle-viewer.js)`,
  );
}

/** The viewer page for the server: the bundle loaded from /assets, data fetched from /api. */
export function serverPage(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>m3 viewer</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/assets/viewer.css">
</head>
<body>
<div id="app"></div>
<script src="/assets/viewer.js"></script>
</body>
</html>
`;
}

/** The table of served files, by exact request path. */
export function viewerAssets(dirs?: readonly string[]): Map<string, ViewerAsset> {
  const { script, style } = readClientBundle(dirs);
  return new Map([
    ['/', { contentType: 'text/html; charset=utf-8', body: Buffer.from(serverPage()) }],
    ['/assets/viewer.js', { contentType: 'text/javascript; charset=utf-8', body: Buffer.from(script) }],
    ['/assets/viewer.css', { contentType: 'text/css; charset=utf-8', body: Buffer.from(style) }],
  ]);
}
