// Test fixture: starts a grandchild that ignores SIGTERM, prints its pid on stderr, then waits.
const { spawn } = require('node:child_process');
const grandchild = spawn(process.execPath, ['-e', "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000);"], {
  stdio: 'ignore',
});
process.stderr.write(`grandchild=${grandchild.pid}\n`);
process.stdin.resume();
process.stdin.on('end', () => process.exit(0));
