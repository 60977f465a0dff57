// Absolute paths of the compiled server binaries, for tests and configs that spawn them.
import { join } from 'node:path';

const packageRoot = join(__dirname, '..');

/** `examples/servers/dist/bin/example-server.js` (exists after `tsc -b`). */
export const exampleServerBin = join(packageRoot, 'dist', 'bin', 'example-server.js');
/** `examples/servers/dist/bin/math-server.js` (exists after `tsc -b`). */
export const mathServerBin = join(packageRoot, 'dist', 'bin', 'math-server.js');
/** `examples/servers/dist/bin/release-server.js` (exists after `tsc -b`): the SDK v2 release server. */
export const releaseServerBin = join(packageRoot, 'dist', 'bin', 'release-server.js');
