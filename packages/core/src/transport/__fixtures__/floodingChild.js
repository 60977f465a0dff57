// A stdio child that floods stdout with lines that are no JSON-RPC messages (M3_FIXTURE_LINES
// non-JSON lines, then JSON that is not JSON-RPC and invalid UTF-8), then sends one notification
// and stays up until its stdin closes.
const lines = Number(process.env.M3_FIXTURE_LINES ?? '1000');
let chunk = '';
for (let i = 0; i < lines; i += 1) chunk += `log ${i}: token=s3cr3t-flood-canary\n`;
process.stdout.write(chunk);
process.stdout.write('{"not":"json-rpc"}\n');
process.stdout.write(Buffer.from([0xff, 0xfe, 0x41, 0x0a]));
process.stdout.write(
  `${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'done' } })}\n`,
);
process.stdin.resume();
process.stdin.on('end', () => process.exit(0));
