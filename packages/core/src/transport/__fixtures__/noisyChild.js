// Test fixture: writes its stderr lines (including M3_FIXTURE_SECRET) and lives until stdin ends.
const lines = Number(process.env.M3_FIXTURE_LINES || '1');
const secret = process.env.M3_FIXTURE_SECRET || 'none';
for (let i = 0; i < lines; i += 1) {
  process.stderr.write(`line ${i} secret=${secret} ${'x'.repeat(Number(process.env.M3_FIXTURE_PAD || '0'))}\n`);
}
process.stderr.write(
  `home=${process.env.HOME ? 'set' : 'unset'} leaked=${process.env.M3_FIXTURE_PARENT_ONLY || 'no'}\n`,
);
process.stdin.resume();
process.stdin.on('end', () => process.exit(Number(process.env.M3_FIXTURE_EXIT_CODE || '0')));
