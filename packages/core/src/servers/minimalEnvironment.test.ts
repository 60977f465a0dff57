import { minimalEnvironment } from './minimalEnvironment';

describe('minimalEnvironment', () => {
  it('keeps only PATH, HOME and platform basics on POSIX', () => {
    const env = minimalEnvironment(
      { PATH: '/bin', HOME: '/home/u', LANG: 'C.UTF-8', OPENAI_API_KEY: 'sk-x', AWS_SECRET: 'y', TMPDIR: '/tmp' },
      'linux',
    );
    expect(env).toEqual({ PATH: '/bin', HOME: '/home/u', LANG: 'C.UTF-8', TMPDIR: '/tmp' });
  });

  it('skips exported shell functions', () => {
    expect(minimalEnvironment({ PATH: '/bin', SHELL: '() { :; }; echo pwned' }, 'linux')).toEqual({ PATH: '/bin' });
  });

  it('matches Windows names case-insensitively', () => {
    const env = minimalEnvironment({ Path: 'C:\\Windows', SystemRoot: 'C:\\Windows', GITHUB_TOKEN: 't' }, 'win32');
    expect(env).toEqual({ PATH: 'C:\\Windows', SYSTEMROOT: 'C:\\Windows' });
  });
});
