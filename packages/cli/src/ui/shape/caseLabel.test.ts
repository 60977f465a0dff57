import { caseLabel } from './caseLabel';

describe('caseLabel', () => {
  test('a full name that starts with the suite name does not repeat it', () => {
    expect(caseLabel('git via openai agent::git via openai agent answers a status question')).toBe(
      'git via openai agent › answers a status question',
    );
  });

  test('a full name under another describe block keeps all of it after the suite', () => {
    expect(caseLabel('catalog::lookup › finds a book')).toBe('catalog › lookup › finds a book');
    expect(caseLabel('git::gitlab works')).toBe('git › gitlab works');
  });

  test('matrix case ids and ids without a suite are shown as stored', () => {
    expect(caseLabel('matrix-0123abcd:cell-1')).toBe('matrix-0123abcd:cell-1');
    expect(caseLabel('no suite at all')).toBe('no suite at all');
    expect(caseLabel('suite::suite')).toBe('suite');
  });
});
