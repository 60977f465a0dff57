// Test fixture: a careless server that prints its command line on stderr and in an error line,
// then lives until stdin ends.
process.stderr.write(`started with ${process.argv.slice(2).join(' ')}\n`);
process.stderr.write(`Error: could not log in with ${process.argv.slice(3).join(',')}\n`);
process.stdin.resume();
process.stdin.on('end', () => process.exit(0));
