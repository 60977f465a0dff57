import { createTestM3, expandTestM3 } from './testM3';
import type { DeclaredCase, JestTestLike, TestM3Context } from './testM3';

const none = { servers: null, harness: null, trials: null };
const build = (selection: Record<string, unknown>) => ({ built: selection.name });

describe('expandTestM3', () => {
  test('one plain test when nothing is selected', () => {
    expect(expandTestM3('quotes', {}, none, build).map((e) => e.title)).toEqual(['quotes']);
  });

  test('server × agent × trial, titled with each dimension in play', () => {
    const titles = expandTestM3(
      'quotes',
      {
        servers: [{ name: 'a' }, { name: 'b' }],
        agents: [{ harness: 'acp', models: ['m1', 'm2'] }],
        trials: 2,
      },
      none,
      build,
    ).map((e) => e.title);
    expect(titles).toEqual([
      'quotes [server=a] [agent=acp:m1] [trial 1/2]',
      'quotes [server=a] [agent=acp:m1] [trial 2/2]',
      'quotes [server=a] [agent=acp:m2] [trial 1/2]',
      'quotes [server=a] [agent=acp:m2] [trial 2/2]',
      'quotes [server=b] [agent=acp:m1] [trial 1/2]',
      'quotes [server=b] [agent=acp:m1] [trial 2/2]',
      'quotes [server=b] [agent=acp:m2] [trial 1/2]',
      'quotes [server=b] [agent=acp:m2] [trial 2/2]',
    ]);
  });

  test("an agent selection with kit.agents' one-model form is titled and narrowed by that model", () => {
    const [expansion] = expandTestM3('quotes', { agents: [{ harness: 'openai', model: 'gpt-x' }] }, none, build);
    expect(expansion.title).toBe('quotes [agent=openai:gpt-x]');
    expect(expansion.agent).toEqual({
      harness: 'openai',
      model: 'gpt-x',
      selection: { harness: 'openai', model: 'gpt-x' },
    });
  });

  test('CLI selections replace the suite options', () => {
    const expansions = expandTestM3(
      'quotes',
      { servers: [{ name: 'suite-server' }], trials: 5 },
      { servers: [{ transport: 'stdio', name: 'cli', command: 'node' }], harness: null, trials: 2 },
      build,
    );
    expect(expansions.map((e) => e.title)).toEqual([
      'quotes [server=cli] [trial 1/2]',
      'quotes [server=cli] [trial 2/2]',
    ]);
    expect(expansions[0].server?.resolve()).toEqual({ built: 'cli' });
    expect(expansions[0].server?.resolve()).toBe(expansions[0].server?.resolve());
  });

  describe('--harness with describe.m3 agents', () => {
    const manifest = { command: 'node', args: ['agent.js'] };
    const cli = (...selections: Array<{ harness: string; models: string[] }>) => ({
      servers: null,
      harness: selections,
      trials: null,
    });

    test("the CLI's models replace the suite's, keeping the suite entry's other fields (the acp manifest)", () => {
      const expansions = expandTestM3(
        'quotes',
        { agents: [{ harness: 'acp', name: 'shipper', manifest, models: ['fixture'] }] },
        cli({ harness: 'acp', models: ['other', 'third'] }),
        build,
      );
      expect(expansions.map((e) => e.title)).toEqual(['quotes [agent=acp:other]', 'quotes [agent=acp:third]']);
      expect(expansions[0]!.agent!.selection).toEqual({
        harness: 'acp',
        name: 'shipper',
        manifest,
        models: ['other'],
      });
    });

    test("an openai entry contributes baseUrl and auth; its one-model form is replaced, not kept beside 'models'", () => {
      const [expansion] = expandTestM3(
        'quotes',
        { agents: [{ harness: 'openai', model: 'suite-model', baseUrl: 'http://127.0.0.1:9/v1', auth: 'none' }] },
        cli({ harness: 'openai', models: ['cli-model'] }),
        build,
      );
      expect(expansion!.agent).toEqual({
        harness: 'openai',
        model: 'cli-model',
        selection: { harness: 'openai', models: ['cli-model'], baseUrl: 'http://127.0.0.1:9/v1', auth: 'none' },
      });
    });

    test('suite entries of kinds the CLI did not name are dropped', () => {
      const titles = expandTestM3(
        'quotes',
        {
          agents: [
            { harness: 'acp', manifest, models: ['fixture'] },
            { harness: 'openai', models: ['m'] },
          ],
        },
        cli({ harness: 'openai', models: ['cli'] }),
        build,
      ).map((e) => e.title);
      expect(titles).toEqual(['quotes [agent=openai:cli]']);
    });

    test('an openai kind without a suite entry runs with the harness defaults', () => {
      const [expansion] = expandTestM3('quotes', {}, cli({ harness: 'openai', models: ['gpt-x'] }), build);
      expect(expansion!.agent!.selection).toEqual({ harness: 'openai', models: ['gpt-x'] });
    });

    test('an acp kind without a suite entry is an error naming the fix', () => {
      expect(() =>
        expandTestM3(
          'quotes',
          { agents: [{ harness: 'openai', models: ['m'] }] },
          cli({ harness: 'acp', models: ['fixture'] }),
          build,
          'shipping',
        ),
      ).toThrow(
        "--harness acp=fixture needs a describe.m3 agents entry with a manifest: add agents: [{ harness: 'acp', " +
          "manifest: { command, args }, models: ['...'] }] to describe.m3('shipping')",
      );
    });

    test('two suite entries of the CLI kind are ambiguous', () => {
      expect(() =>
        expandTestM3(
          'quotes',
          {
            agents: [
              { harness: 'acp', manifest, models: ['a'] },
              { harness: 'acp', manifest, models: ['b'] },
            ],
          },
          cli({ harness: 'acp', models: ['c'] }),
          build,
          'shipping',
        ),
      ).toThrow("--harness acp=c: describe.m3('shipping') has 2 agents entries of kind 'acp'");
    });

    test('several CLI kinds each merge with their own suite entry', () => {
      const selections = expandTestM3(
        'quotes',
        {
          agents: [
            { harness: 'acp', manifest, models: ['fixture'] },
            { harness: 'openai', baseUrl: 'http://127.0.0.1:9/v1', auth: 'none', models: ['m'] },
          ],
        },
        cli({ harness: 'openai', models: ['o1'] }, { harness: 'acp', models: ['a1'] }),
        build,
      ).map((e) => e.agent!.selection);
      expect(selections).toEqual([
        { harness: 'openai', baseUrl: 'http://127.0.0.1:9/v1', auth: 'none', models: ['o1'] },
        { harness: 'acp', manifest, models: ['a1'] },
      ]);
    });
  });

  test('refuses servers without a name', () => {
    expect(() => expandTestM3('q', { servers: [{}] }, none, build)).toThrow('server definitions');
  });
});

describe('createTestM3', () => {
  test('defines one Jest test per expansion, declaring the shared case first', async () => {
    const defined: Array<{ title: string; fn: () => unknown; declared: DeclaredCase | null }> = [];
    let declared: DeclaredCase | null = null;
    const record = (title: string, fn: () => unknown) => {
      defined.push({ title, fn, declared });
    };
    const jestTest = Object.assign(record, { skip: record, only: record }) as JestTestLike;
    const kit = {
      caseId: 's::quotes',
      agents: (selections: unknown[], options: { trials: number }) =>
        Array.from({ length: options.trials }, (_, i) => ({ agentFor: selections[0], trial: i + 1 })),
    };
    const testM3 = createTestM3({
      test: jestTest,
      options: () => ({ trials: 2, agents: [{ harness: 'acp', models: ['m'] }] }),
      overrides: none,
      buildServer: build,
      declareCase: (next) => {
        declared = next;
      },
      currentKit: () => kit,
    });
    const seen: TestM3Context[] = [];
    testM3('quotes', (context) => {
      seen.push(context);
    });
    expect(declared).toBeNull();
    expect(defined.map((d) => [d.title, d.declared?.baseTitle, d.declared?.labels.trial])).toEqual([
      ['quotes [agent=acp:m] [trial 1/2]', 'quotes', '1'],
      ['quotes [agent=acp:m] [trial 2/2]', 'quotes', '2'],
    ]);
    await defined[1].fn();
    expect(seen[0]).toMatchObject({ kit, trial: 2, caseId: 's::quotes', server: undefined });
    expect(seen[0]!.agent).toEqual({ agentFor: { harness: 'acp', models: ['m'] }, trial: 2 });
    expect(seen[0]!.server).toBeUndefined();
  });
});
