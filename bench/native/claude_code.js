// Claude Code driven raw for the native bench: the arguments, MCP config and switches the
// claude_code harness writes (its own `claudeLaunchExtras`), the example server attached directly,
// one `-p --input-format stream-json` process across turns; a turn is one stream-json user message
// and ends at the `result` message.
'use strict';

const { coreModule, cliEnv, makeDirs, readLines, startCli, untilFrame, writeLine } = require('./rawCli');

/** Opens one raw session; `turn(prompt)` resolves the result text, `close()` reaps the CLI. */
async function open({ executable, origin, model, server }) {
  const { claudeLaunchExtras } = coreModule('agents/claude_code/claudeCodeLaunch.js');
  const dirs = makeDirs('claude_code');
  const { args, env } = await claudeLaunchExtras(dirs, {
    selection: { baseUrl: origin },
    model,
    apiKey: 'sk-ant-fake-key-for-loopback',
    descriptors: [server],
    tools: [{ server: server.name, tools: 'all' }],
    keys: new Map([[server.name, server.name]]),
  });
  const cli = startCli(executable, args, cliEnv(dirs, env), dirs);
  let onResult = null;
  let sessionId = '';
  readLines(cli.child.stdout, (frame) => {
    if (typeof frame.session_id === 'string') sessionId = frame.session_id;
    if (frame.type === 'result' && onResult !== null) onResult(frame);
  });
  return {
    async turn(prompt) {
      const result = untilFrame(cli, 'stream-json result', 120_000, (resolve) => (onResult = resolve));
      writeLine(cli.child.stdin, {
        type: 'user',
        message: { role: 'user', content: [{ type: 'text', text: prompt }] },
        parent_tool_use_id: null,
        session_id: sessionId,
      });
      const frame = await result;
      onResult = null;
      if (frame.subtype !== 'success' || frame.is_error) throw new Error(`raw claude turn ended ${frame.subtype}`);
      return String(frame.result ?? '');
    },
    close: () => cli.stop(),
  };
}

module.exports = { kind: 'claude_code', model: 'claude-sonnet-4-5', open };
