import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CASSETTE_REPLAY_KEY } from '../../cassettes/clients/cassetteReplayKey';
import { ModelValidationError } from '../../errors';
import { MCPTestKit } from '../../kit/MCPTestKit';
import { Redactor } from '../../redaction/Redactor';
import { StdioServer } from '../../servers/StdioServer';
import { makePrivateTempDir } from '../../tempfiles/privateTempDir';
import { CLAUDE_CODE_DEFAULTS } from '../claude_code/claudeCodeDefaults';
import { claudeApiKey, claudeLaunchExtras, claudeServerKeys } from '../claude_code/claudeCodeLaunch';
import { prepareCodexLaunch } from '../codex/codexLaunch';
import { prepareNativeLaunch, type NativeLaunch } from '../native/nativeLaunch';
import { NATIVE_HARNESSES } from '../native/nativeHarnesses';
import { resolveNativeSelection, type NativeHarnessKind } from '../native/nativeSelection';
import { opencodeConfig, parseOpencodeModel } from '../opencode/opencodeConfig';
import { OPENCODE_DEFAULTS } from '../opencode/opencodeHarness';
import { PI_DEFAULTS } from '../pi/piDefaults';
import { piLaunchExtras } from '../pi/piLaunch';
import { parsePiModel, piKeyEnv } from '../pi/piModel';
import { removeLaunchRoot } from '../process/launchPlan';
import { cassetteScopeDouble, DOUBLE_PROXY_ORIGIN, type CassetteScopeDouble } from './cassetteScopeDouble.testkit';
import { ExecutionCassette } from './ExecutionCassette';

// Unit tests of the launch wiring (contract §24): which endpoint and key each native CLI is given
// when its execution has cassettes. Recording and replaying through a real book is in the
// record/replay tests (and, for the CLIs, lane casclis's *.cassette.test.ts).

const KEYS = ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY', 'OPENCODE_API_KEY'] as const;
let saved: Partial<Record<(typeof KEYS)[number], string>> = {};
const launches: NativeLaunch[] = [];

beforeEach(() => {
  saved = {};
  for (const k of KEYS) {
    saved[k] = process.env[k];
    delete process.env[k];
  }
});

afterEach(async () => {
  for (const k of KEYS) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
  await Promise.all(launches.splice(0).map((l) => removeLaunchRoot(l.plan)));
});

async function fakeCli(): Promise<string> {
  const dir = await makePrivateTempDir('m3-cassette-launch-test-');
  const path = join(dir, 'fake-cli');
  await writeFile(path, '#!/bin/sh\nexit 0\n');
  await chmod(path, 0o700);
  return path;
}

/** A selection of `kind` with a fake executable, and the execution cassette its session would make. */
async function setUp(kind: NativeHarnessKind, spec: Record<string, unknown>, double: CassetteScopeDouble) {
  const harness = NATIVE_HARNESSES[kind]!;
  const selection = resolveNativeSelection({ harness: kind, ...spec, executable: await fakeCli() }, harness.defaults);
  const model = selection.models[0]!;
  const cassette = new ExecutionCassette(
    double.scope,
    `${kind} ${model} trial 1`,
    harness.upstream(selection, model),
    new Redactor(),
    1,
  );
  return { selection, model, cassette };
}

const kept = (launch: NativeLaunch): NativeLaunch => {
  launches.push(launch);
  return launch;
};

describe('claude_code behind the cassette proxy', () => {
  async function launch(double: CassetteScopeDouble, spec: Record<string, unknown> = {}) {
    const { selection, model, cassette } = await setUp('claude_code', { models: ['sonnet'], ...spec }, double);
    const keys = claudeServerKeys([]);
    return kept(
      await prepareNativeLaunch(
        selection,
        CLAUDE_CODE_DEFAULTS,
        (dirs, key, route) =>
          claudeLaunchExtras(dirs, {
            selection,
            model,
            apiKey: claudeApiKey(selection, key),
            descriptors: [],
            tools: [],
            keys,
            ...(route !== undefined && { route }),
          }),
        new Redactor(),
        cassette,
      ),
    );
  }

  it("gets ANTHROPIC_BASE_URL = the proxy, forwarding to Anthropic's API; the run's folders are volatile", async () => {
    process.env.ANTHROPIC_API_KEY = 'sk-ant-real-key-for-wiring-7f3k';
    const double = cassetteScopeDouble('record');
    const { plan } = await launch(double);
    expect(plan.env.ANTHROPIC_BASE_URL).toBe(DOUBLE_PROXY_ORIGIN);
    expect(plan.env.ANTHROPIC_API_KEY).toBe('sk-ant-real-key-for-wiring-7f3k');
    expect(double.opened).toHaveLength(1);
    expect(double.opened[0]).toMatchObject({
      channel: 'claude_code sonnet trial 1',
      upstream: 'https://api.anthropic.com',
    });
    expect(double.opened[0]!.volatileStrings).toEqual(
      expect.arrayContaining([plan.workspace, plan.home, plan.configDir, plan.root]),
    );
  });

  it('forwards to the selection baseUrl when it has one', async () => {
    const double = cassetteScopeDouble('auto');
    const { plan } = await launch(double, { baseUrl: 'http://127.0.0.1:4100' });
    expect(double.opened[0]!.upstream).toBe('http://127.0.0.1:4100');
    expect(plan.env.ANTHROPIC_BASE_URL).toBe(DOUBLE_PROXY_ORIGIN);
  });

  it('runs with the replay placeholder key in replay when ANTHROPIC_API_KEY is unset', async () => {
    const { plan } = await launch(cassetteScopeDouble('replay'));
    expect(plan.env.ANTHROPIC_API_KEY).toBe(CASSETTE_REPLAY_KEY);
  });

  it("keeps the key rule in record: no key and Anthropic's API upstream still fails (the loopback proxy is no excuse)", async () => {
    await expect(launch(cassetteScopeDouble('record'))).rejects.toThrow(
      /the claude_code harness needs the model API key in ANTHROPIC_API_KEY/,
    );
  });
});

describe('codex behind the cassette proxy', () => {
  async function launch(double: CassetteScopeDouble, spec: Record<string, unknown> = {}) {
    const { selection, model, cassette } = await setUp('codex', { models: ['gpt-5'], ...spec }, double);
    const launched = kept(await prepareCodexLaunch(selection, model, [], [], new Redactor(), cassette));
    const toml = await readFile(join(launched.plan.configDir, 'config.toml'), 'utf8');
    return { plan: launched.plan, toml };
  }

  it("writes base_url = the proxy, forwarding to OpenAI's API", async () => {
    process.env.OPENAI_API_KEY = 'sk-real-openai-key-for-wiring-2k9d';
    const double = cassetteScopeDouble('auto');
    const { plan, toml } = await launch(double);
    expect(toml).toContain(`base_url = "${DOUBLE_PROXY_ORIGIN}/v1"`);
    expect(toml).not.toContain('sk-real-openai-key');
    expect(plan.env.OPENAI_API_KEY).toBe('sk-real-openai-key-for-wiring-2k9d');
    expect(double.opened[0]).toMatchObject({ channel: 'codex gpt-5 trial 1', upstream: 'https://api.openai.com/v1' });
  });

  it('runs with the replay placeholder in its key variable in replay', async () => {
    const { plan, toml } = await launch(cassetteScopeDouble('replay'));
    expect(toml).toContain('env_key = "OPENAI_API_KEY"');
    expect(plan.env.OPENAI_API_KEY).toBe(CASSETTE_REPLAY_KEY);
  });

  it('keeps the key rule outside replay', async () => {
    await expect(launch(cassetteScopeDouble('auto'))).rejects.toThrow(/the codex harness needs a model key/);
  });
});

describe('opencode behind the cassette proxy', () => {
  async function launch(double: CassetteScopeDouble, spec: Record<string, unknown>) {
    const { selection, model, cassette } = await setUp('opencode', spec, double);
    let config: Record<string, unknown> = {};
    const launched = kept(
      await prepareNativeLaunch(
        selection,
        OPENCODE_DEFAULTS,
        (_dirs, apiKey, route) => {
          config = opencodeConfig({
            model: parseOpencodeModel(model),
            baseUrl: selection.baseUrl,
            ...(route !== undefined && { proxyUrl: route.baseUrl }),
            ...(apiKey === CASSETTE_REPLAY_KEY && { proxyKey: CASSETTE_REPLAY_KEY }),
            apiKeyEnv: selection.apiKeyEnv,
            servers: [],
            tools: [],
          });
          return { args: [], env: {} };
        },
        new Redactor(),
        cassette,
      ),
    );
    return { plan: launched.plan, config, apiKey: launched.apiKey };
  }

  it("points a built-in provider's baseURL at the proxy and keeps its API (no openai-compatible swap)", async () => {
    const double = cassetteScopeDouble('replay');
    const { config, apiKey } = await launch(double, { models: ['anthropic/claude-sonnet-4-5'] });
    expect(double.opened[0]!.upstream).toBe('https://api.anthropic.com/v1');
    expect(apiKey).toBe(CASSETTE_REPLAY_KEY);
    expect(config.provider).toEqual({
      anthropic: { options: { baseURL: `${DOUBLE_PROXY_ORIGIN}/v1`, apiKey: CASSETTE_REPLAY_KEY } },
    });
  });

  it("points the selection's OpenAI-compatible provider at the proxy; a real key stays a {env:} reference", async () => {
    process.env.OPENCODE_API_KEY = 'sk-opencode-real-key-5j2m';
    const double = cassetteScopeDouble('record');
    const { config } = await launch(double, { models: ['fake/model-1'], baseUrl: 'http://127.0.0.1:4100/v1' });
    expect(double.opened[0]!.upstream).toBe('http://127.0.0.1:4100/v1');
    const provider = (config.provider as Record<string, { options: Record<string, unknown> }>).fake!;
    expect(provider.options).toEqual({ baseURL: `${DOUBLE_PROXY_ORIGIN}/v1`, apiKey: '{env:OPENCODE_API_KEY}' });
    expect(JSON.stringify(config)).not.toContain('sk-opencode-real-key');
  });
});

describe('pi behind the cassette proxy', () => {
  async function launch(double: CassetteScopeDouble, spec: Record<string, unknown>) {
    const { selection, model, cassette } = await setUp('pi', spec, double);
    const piModel = parsePiModel(model);
    const keyEnv = piKeyEnv(selection.apiKeyEnv, piModel.provider);
    const bridge = { schemaVersion: 1 as const, servers: [], tools: [] };
    const launched = kept(
      await prepareNativeLaunch(
        { ...selection, apiKeyEnv: keyEnv },
        PI_DEFAULTS,
        (dirs, apiKey, route) => piLaunchExtras(selection, piModel, keyEnv, dirs, apiKey, bridge, route),
        new Redactor(),
        cassette,
      ),
    );
    const models = JSON.parse(
      await readFile(join(launched.plan.env.PI_CODING_AGENT_DIR!, 'models.json'), 'utf8'),
    ) as Record<string, unknown>;
    return { plan: launched.plan, models };
  }

  it("overrides only the built-in provider's baseUrl in models.json; replay puts the placeholder in its key variable", async () => {
    const double = cassetteScopeDouble('replay');
    const { plan, models } = await launch(double, { models: ['anthropic/claude-sonnet-4-5'] });
    expect(double.opened[0]!.upstream).toBe('https://api.anthropic.com');
    expect(models).toEqual({ providers: { anthropic: { baseUrl: DOUBLE_PROXY_ORIGIN } } });
    expect(plan.env.ANTHROPIC_API_KEY).toBe(CASSETTE_REPLAY_KEY);
  });

  it("points the selection's custom provider at the proxy", async () => {
    const double = cassetteScopeDouble('auto');
    const { plan, models } = await launch(double, { models: ['fake/model-1'], baseUrl: 'http://127.0.0.1:4100/v1' });
    expect(double.opened[0]!.upstream).toBe('http://127.0.0.1:4100/v1');
    expect(models).toMatchObject({ providers: { fake: { baseUrl: `${DOUBLE_PROXY_ORIGIN}/v1` } } });
    expect(plan.env.M3_PI_API_KEY).toBe('sf-m3-no-key');
  });
});

describe('an endpoint the cassettes cannot name', () => {
  it('fails the run with a ModelValidationError naming the fixes: give baseUrl, or mode off', async () => {
    const double = cassetteScopeDouble('replay');
    const kit = new MCPTestKit({ cassettes: double.scope });
    try {
      const [agent] = kit.agents([{ harness: 'opencode', model: 'opencode/big-pickle', executable: await fakeCli() }]);
      const server = new StdioServer({ name: 'unused', command: process.execPath, args: ['-e', '0'] });
      const run = agent!.run('hi', { servers: [server] });
      await expect(run).rejects.toThrow(ModelValidationError);
      await expect(run).rejects.toThrow(
        /cassettes cannot tell where provider 'opencode' of model 'opencode\/big-pickle' is served.*give the selection baseUrl.*cassettes mode 'off'/,
      );
      expect(double.opened).toEqual([]);
    } finally {
      await kit.close();
    }
  });
});
