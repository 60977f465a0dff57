import { executionRecord } from '@sf-m3/test-utils/store';
import { labelPairs } from './labelPairs';

const text = (pairs: ReturnType<typeof labelPairs>): string[] => pairs.map((p) => `${p.key}=${p.value}`);

describe('labelPairs', () => {
  test('an agent execution’s trial (also copied into metadata.trial) is shown once', () => {
    const record = executionRecord({
      labels: {
        harness: 'claude_code',
        model: 'claude-sonnet-4-5',
        trial: '1',
        metadata: { harness_config: 'claude_code:claude-sonnet-4-5', trial: '1' },
      } as never,
    });
    const shown = text(labelPairs(record.labels));
    expect(shown.filter((l) => l.endsWith('trial=1'))).toEqual(['trial=1']);
    expect(shown).toEqual([
      'server=catalog',
      'transport=stdio',
      'harness=claude_code',
      'model=claude-sonnet-4-5',
      'trial=1',
      'harness_config=claude_code:claude-sonnet-4-5',
    ]);
  });

  test('a metadata label that disagrees with a top-level one, or names an unset one, keeps its metadata. prefix', () => {
    const record = executionRecord({
      labels: { trial: '2', model: null, metadata: { trial: '3', model: 'm', team: 'x' } } as never,
    });
    expect(text(labelPairs(record.labels))).toEqual([
      'server=catalog',
      'transport=stdio',
      'trial=2',
      'metadata.trial=3',
      'metadata.model=m',
      'team=x',
    ]);
  });
});
