// The `m3` program: `m3 test`, `m3 runs`, `m3 report`, `m3 prune`, `m3 merge`, `m3 init`, `m3 doctor`. Exit status: 0 all green, 1 a test or a
// required evaluation failed, 2 usage or configuration error (the message names the flag).
import { Command, CommanderError, Option } from 'commander';
import { processIO, type CliIO } from './CliIO';
import { cliVersion } from './cliVersion';
import type * as DoctorCommand from './commands/doctor';
import type * as InitCommand from './commands/init';
import type * as MergeCommand from './commands/merge';
import type { PruneCommandInput } from './commands/prune';
import type * as PruneCommand from './commands/prune';
import type { ReportCommandInput } from './commands/report';
import type * as ReportCommand from './commands/report';
import type * as RunsCommand from './commands/runs';
import type * as TestCommand from './commands/test';
import type * as UiCommand from './commands/ui';
import { SERVER_FIELD_FLAGS, type ServerToken } from './options/serverTokens';
import { UsageError } from './options/UsageError';

/** Exit status of a usage or configuration error. */
export const USAGE_EXIT = 2;

/**
 * The command modules, each required when its command runs: together they load @sf-m3/core, the
 * viewer's server and the report writers, which `m3 --version`, `--help` or a usage error never
 * need, and `m3 test` needs only some of.
 */
const commands = {
  doctor: () => require('./commands/doctor') as typeof DoctorCommand,
  init: () => require('./commands/init') as typeof InitCommand,
  merge: () => require('./commands/merge') as typeof MergeCommand,
  prune: () => require('./commands/prune') as typeof PruneCommand,
  report: () => require('./commands/report') as typeof ReportCommand,
  runs: () => require('./commands/runs') as typeof RunsCommand,
  test: () => require('./commands/test') as typeof TestCommand,
  ui: () => require('./commands/ui') as typeof UiCommand,
};

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** Splits `m3` argv at the first `--`: what m3 parses, and what goes to Jest unchanged. */
export function splitPassthrough(argv: readonly string[]): { own: string[]; passthrough: string[] } {
  const index = argv.indexOf('--');
  return index === -1
    ? { own: [...argv], passthrough: [] }
    : { own: argv.slice(0, index), passthrough: argv.slice(index + 1) };
}

/** Builds the commander program; `setStatus` receives each command's exit status. */
export function buildProgram(
  io: CliIO,
  passthrough: string[],
  setStatus: (code: number) => void,
  ownArgv: string[],
): Command {
  const program = new Command('m3')
    .description('Run Jest with the sf-m3 preset and report pass rates from the results database.')
    .version(cliVersion(), '-V, --version', 'print the sf-m3 version')
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.stdout(s), writeErr: (s) => io.stderr(s) })
    .showHelpAfterError('(run `m3 --help` for usage)');

  const serverTokens: ServerToken[] = [];
  const test = program
    .command('test')
    .description('Run Jest with the sf-m3 preset, then print the run summary. Jest options go after --.')
    .argument('[paths...]', 'test paths or patterns passed to Jest')
    .option('--results-db <path>', 'SQLite results database', undefined)
    .option('--run-id <id>', 'id for this run (default: a new run-<hex>)')
    .option('--trials <n>', 'trials per test.m3 case')
    .option('--protocol <revision>', 'run every describe.m3 suite once per MCP revision (repeatable)', collect)
    .option('--harness <kind=model[,model]>', 'agent harness and models (repeatable)', collect)
    .option('--env-file <path>', 'load environment variables from this .env file')
    .option('--execution-timeout <seconds>', 'deadline for every execution')
    .option('--baseline <run-id|latest>', 'compare with an earlier run')
    .option('--json', 'print the summary as JSON on stdout (Jest output goes to stderr)')
    // reports lane: judge budget
    .option('--judge-max-requests <n>', 'cap judge calls for the whole run, across workers (the rest are errors)')
    // viewer: m3 test --ui
    .option('--ui', 'after Jest finishes, serve the viewer on the new run until Ctrl-C')
    .option('--ui-port <n>', 'port of the --ui viewer (default: any free port)')
    // end viewer
    // regressions: significance and gates (contract §21)
    .option('--alpha <level>', 'significance level of the baseline pass-rate tests (default 0.05)')
    .option('--min-pass-rate <[evaluator=]rate>', 'fail (exit 1) when an evaluator passes less (repeatable)', collect)
    .option('--fail-on-regression', 'fail (exit 1) when a pass rate dropped significantly since the baseline')
    // fuzz: replay a describe.m3.fuzz failure (contract §25)
    .option('--seed <n>', 'the seed describe.m3.fuzz uses (the one a fuzz failure printed), to reproduce it')
    // cassettes: record model traffic once, replay it in CI (contract §24)
    .option(
      '--cassettes <mode>',
      'model traffic of agents and judges: auto (replay what is recorded, record the rest), record, replay ' +
        '(never reach the model) or off (default auto; replay with --ci or CI=true)',
    )
    .option('--update-cassettes', 're-record the cassettes of what runs and drop their obsolete entries')
    .option('--ci', 'pass --ci to Jest: snapshots and cassettes are not written, cassettes replay by default')
    .addOption(
      new Option('--server <transport>', 'start a server group: http or stdio (repeatable)').argParser((v: string) => {
        serverTokens.push({ flag: 'server', value: v });
        return v;
      }),
    );
  const fieldHelp: Record<(typeof SERVER_FIELD_FLAGS)[number], string> = {
    url: 'http group: the endpoint URL',
    header: 'http group: a request header K=V (repeatable, value never printed)',
    'bearer-env': 'http group: send Authorization: Bearer <the value of this environment variable>',
    trust: 'http group: "trusted_private" to allow a private-range host',
    name: 'server name (default "server")',
    command: 'stdio group: the command to start',
    arg: 'stdio group: one argument (repeatable)',
    env: 'stdio group: an environment variable K=V (repeatable, value never printed)',
  };
  for (const flag of SERVER_FIELD_FLAGS) {
    test.addOption(
      new Option(`--${flag} <value>`, fieldHelp[flag]).argParser((v: string) => {
        serverTokens.push({ flag, value: v });
        return v;
      }),
    );
  }
  test.action(async (paths: string[], opts: Record<string, unknown>) => {
    const status = await commands.test().runTestCommand(
      {
        raw: {
          resultsDb: opts.resultsDb as string | undefined,
          runId: opts.runId as string | undefined,
          trials: opts.trials as string | undefined,
          protocol: opts.protocol as string[] | undefined,
          harness: opts.harness as string[] | undefined,
          envFile: opts.envFile as string | undefined,
          executionTimeout: opts.executionTimeout as string | undefined,
          baseline: opts.baseline as string | undefined,
          json: opts.json as boolean | undefined,
          judgeMaxRequests: opts.judgeMaxRequests as string | undefined,
          ui: opts.ui as boolean | undefined,
          uiPort: opts.uiPort as string | undefined,
          minPassRate: opts.minPassRate as string[] | undefined,
          failOnRegression: opts.failOnRegression as boolean | undefined,
          alpha: opts.alpha as string | undefined,
          seed: opts.seed as string | undefined,
          cassettes: opts.cassettes as string | undefined,
          updateCassettes: opts.updateCassettes as boolean | undefined,
          ci: opts.ci as boolean | undefined,
          serverTokens,
        },
        paths,
        jestArgs: passthrough,
        argv: [
          ...ownArgv.slice(ownArgv.indexOf('test') + 1),
          ...(passthrough.length > 0 ? ['--', ...passthrough] : []),
        ],
      },
      io,
    );
    setStatus(status);
  });

  program
    .command('runs')
    .description('List recent runs in the results database, newest first.')
    .option('--results-db <path>', 'SQLite results database')
    .option('--limit <n>', 'how many runs to list (default 20)')
    .option('--json', 'print the runs as JSON')
    .action(async (opts: { resultsDb?: string; limit?: string; json?: boolean }) => {
      setStatus(await commands.runs().runRunsCommand(opts, io));
    });

  program
    .command('report')
    .description("Print a saved run's summary (the latest run when RUN_ID is omitted).")
    .argument('[run-id]', 'the run to report')
    .option('--results-db <path>', 'SQLite results database')
    .option('--baseline <run-id|latest>', 'compare with an earlier run')
    // regressions: significance level of the baseline's pass-rate tests
    .option('--alpha <level>', 'significance level of the baseline pass-rate tests (default 0.05)')
    .option('--json', 'print the summary as JSON')
    // reports lane: CI outputs
    .option('--format <junit|markdown>', 'write JUnit XML or a Markdown summary (for CI) instead of the summary')
    .option('--output <file>', 'write the --format (or --flaky) report to this file instead of stdout')
    .option('--flaky', 'list tests whose final attempts passed in some of the last runs and failed in others')
    .option('--runs <k>', 'how many recent runs --flaky reads (default 10)')
    // viewer: --html DIR
    .option('--html <dir>', "also write the run's views as a static HTML folder (DIR/index.html)")
    // surface: contract §25
    .option(
      '--surface',
      "print the run's surface coverage per server (tools, properties, enum values, prompts, resources)",
    )
    .action(async (runId: string | undefined, opts: Omit<ReportCommandInput, 'runId'>) => {
      setStatus(await commands.report().runReportCommand({ ...opts, runId }, io));
    });

  // viewer: m3 ui
  program
    .command('ui')
    .description('Serve a read-only viewer of the results database on 127.0.0.1 until Ctrl-C.')
    .option('--results-db <path>', 'SQLite results database')
    .option('--port <n>', 'port to listen on (default: any free port)')
    .option('--no-open', 'do not open a browser; only print the URL')
    .action(async (opts: { resultsDb?: string; port?: string; open?: boolean }) => {
      setStatus(await commands.ui().runUiCommand(opts, io));
    });
  // end viewer

  // retention: m3 prune, m3 merge (contract §20) ---------------------------------------------------
  program
    .command('prune')
    .description('Delete old runs and what only they reference, then reclaim the space.')
    .option('--results-db <path>', 'results database (default .m3/executions.sqlite)')
    .option('--keep-runs <n>', 'keep the N newest runs, delete the older ones')
    .option('--older-than <duration>', 'delete runs started longer ago than this, e.g. 30d, 12h, 2w')
    .option('--dry-run', 'print what would be deleted and change nothing')
    .option('--include-running', 'also delete selected runs that are still running')
    .option('--json', 'print the prune report as JSON')
    .action(async (opts: PruneCommandInput) => {
      setStatus(await commands.prune().runPruneCommand(opts, io));
    });

  program
    .command('merge')
    .description('Merge SQLite results databases (e.g. one per CI shard) into OUT; merging again adds nothing.')
    .argument('<out>', 'the database to merge into (created when missing)')
    .argument('<in...>', 'the databases to merge from (only read)')
    .option('--json', 'print the merge report as JSON')
    .action(async (out: string, inputs: string[], opts: { json?: boolean }) => {
      setStatus(await commands.merge().runMergeCommand({ out, inputs, json: opts.json }, io));
    });
  // end retention

  program
    .command('init')
    .description(
      'Set this project up for sf-m3: preset in the Jest config, tsconfig types, .gitignore, a starter suite.',
    )
    .option('--command <cmd>', 'the starter suite starts this stdio server command')
    .option('--arg <value>', 'one argument of --command (repeatable)', collect)
    .option('--url <url>', 'the starter suite connects to this Streamable HTTP server instead')
    .option('--suite <name>', 'the starter suite\'s name (default "mcp-behavior")')
    .action(async (opts: { command?: string; arg?: string[]; url?: string; suite?: string }) => {
      setStatus(await commands.init().runInitCommand(opts, io));
    });

  program
    .command('doctor')
    .description(
      'Check that this project can run sf-m3: Node, peers, preset, sqlite3, types, test imports, results db, harnesses.',
    )
    .option('--results-db <path>', 'SQLite results database to check (default $M3_RESULTS_DB or .m3/executions.sqlite)')
    .option('--json', 'print the checks as JSON')
    .action(async (opts: { resultsDb?: string; json?: boolean }) => {
      setStatus(await commands.doctor().runDoctorCommand(opts, io));
    });
  return program;
}

/** Runs the CLI with `argv` (without `node m3`); resolves to the exit status. */
export async function main(argv: readonly string[], io: CliIO = processIO()): Promise<number> {
  const { own, passthrough } = splitPassthrough(argv);
  let status = 0;
  const program = buildProgram(io, passthrough, (code) => (status = code), own);
  if (own.length === 0) {
    io.stderr(program.helpInformation());
    return USAGE_EXIT;
  }
  if (passthrough.length > 0 && own[0] !== 'test') {
    io.stderr(`m3 ${own[0]}: "--" passes arguments to Jest and only applies to m3 test\n`);
    return USAGE_EXIT;
  }
  try {
    await program.parseAsync(own, { from: 'user' });
    return status;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version are not errors; commander has already printed its message otherwise.
      if (
        error.code === 'commander.helpDisplayed' ||
        error.code === 'commander.help' ||
        error.code === 'commander.version'
      ) {
        return 0;
      }
      if (error.code === 'commander.unknownOption' && own[0] === 'test') {
        io.stderr('m3: Jest options go after "--", e.g. m3 test -- --ci\n');
      }
      return USAGE_EXIT;
    }
    if (error instanceof UsageError) {
      io.stderr(`m3: ${error.message}\n`);
      return USAGE_EXIT;
    }
    const message = error instanceof Error ? error.message : String(error);
    io.stderr(`m3: ${message.split('\n')[0]}\n`);
    return USAGE_EXIT;
  }
}

/** Entry point used by `bin/m3.js`: runs with the process argv and sets the exit code. */
export async function run(argv: readonly string[] = process.argv.slice(2)): Promise<void> {
  process.exitCode = await main(argv);
}
