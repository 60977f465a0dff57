/** Variables a child inherits on POSIX systems: enough to find programs and behave normally. */
const POSIX_INHERITED = [
  'HOME',
  'LOGNAME',
  'PATH',
  'SHELL',
  'TERM',
  'USER',
  'TMPDIR',
  'LANG',
  'LC_ALL',
  'LC_CTYPE',
  'TZ',
];
/** Variables a child inherits on Windows. */
const WINDOWS_INHERITED = [
  'APPDATA',
  'COMSPEC',
  'HOMEDRIVE',
  'HOMEPATH',
  'LOCALAPPDATA',
  'PATH',
  'PATHEXT',
  'PROCESSOR_ARCHITECTURE',
  'PROGRAMFILES',
  'SYSTEMDRIVE',
  'SYSTEMROOT',
  'TEMP',
  'TMP',
  'USERNAME',
  'USERPROFILE',
  'WINDIR',
];

/**
 * The environment a stdio child inherits from this process: PATH, HOME and the platform basics,
 * nothing else (no tokens or keys leak from the test runner into the server under test).
 */
export function minimalEnvironment(
  source: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): Record<string, string> {
  const names = platform === 'win32' ? WINDOWS_INHERITED : POSIX_INHERITED;
  const lookup = new Map<string, string>();
  for (const [key, value] of Object.entries(source)) {
    if (value !== undefined) lookup.set(platform === 'win32' ? key.toUpperCase() : key, value);
  }
  const env: Record<string, string> = {};
  for (const name of names) {
    const value = lookup.get(name);
    // Exported shell functions (`() { ...`) are skipped: they are a known injection vector.
    if (value === undefined || value.startsWith('()')) continue;
    env[name] = value;
  }
  return env;
}
