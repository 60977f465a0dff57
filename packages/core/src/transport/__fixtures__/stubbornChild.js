// Test fixture: ignores SIGTERM and the end of stdin; only SIGKILL ends it.
process.on('SIGTERM', () => process.stderr.write('ignoring SIGTERM\n'));
process.stdin.resume();
process.stdin.on('end', () => undefined);
setInterval(() => undefined, 1000);
process.stderr.write('stubborn ready\n');
