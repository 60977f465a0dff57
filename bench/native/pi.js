// Pi driven raw for the native bench: the arguments, `models.json` and switches the pi harness
// writes (its own `piLaunchExtras`), with the kit's MCP extension connecting to the example server
// directly (Pi has no MCP of its own: the extension is how it reaches a server at all), one
// `pi --mode rpc` across turns; a turn is one `prompt` command and ends at `agent_end`.
'use strict';

const { coreModule, cliEnv, makeDirs, readLines, startCli, untilFrame, writeLine } = require('./rawCli');

function assistantText(message) {
  if (message?.role !== 'assistant' || !Array.isArray(message.content)) return null;
  return message.content
    .filter((part) => part.type === 'text')
    .map((part) => part.text)
    .join('');
}

/** Opens one raw session; `turn(prompt)` resolves the last assistant text, `close()` reaps Pi. */
async function open({ executable, baseUrl, model, server }) {
  const { piLaunchExtras } = coreModule('agents/pi/piLaunch.js');
  const { parsePiModel } = coreModule('agents/pi/piModel.js');
  const dirs = makeDirs('pi');
  const parsed = parsePiModel(model);
  const bridge = { schemaVersion: 1, servers: [server], tools: [] };
  const { args, env } = await piLaunchExtras({ baseUrl }, parsed, null, dirs, 'fake-key-for-loopback', bridge);
  const cli = startCli(executable, args, cliEnv(dirs, env), dirs);
  let onEnd = null;
  let text = '';
  let prompts = 0;
  readLines(cli.child.stdout, (frame) => {
    if (frame.type === 'message_end') text = assistantText(frame.message) ?? text;
    // Dialogs (none expected) are dismissed, as the harness does, so Pi never waits on one.
    if (frame.type === 'extension_ui_request' && ['select', 'confirm', 'input', 'editor'].includes(frame.method)) {
      writeLine(cli.child.stdin, { type: 'extension_ui_response', id: frame.id, cancelled: true });
    }
    if (frame.type === 'agent_end' && onEnd !== null) onEnd(frame);
  });
  return {
    async turn(prompt) {
      text = '';
      const ended = untilFrame(cli, 'agent_end', 120_000, (resolve) => (onEnd = resolve));
      prompts += 1;
      writeLine(cli.child.stdin, { type: 'prompt', id: `prompt-${prompts}`, message: prompt });
      await ended;
      onEnd = null;
      return text;
    },
    close: () => cli.stop(),
  };
}

module.exports = { kind: 'pi', model: 'fake/bench', open };
