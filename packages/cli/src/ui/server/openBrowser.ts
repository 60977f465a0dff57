// Opens a URL in the user's browser with the platform's opener; failures are only reported, since
// the URL is printed anyway.
import { spawn } from 'node:child_process';

/** The opener command for this platform. */
export function browserCommand(platform: NodeJS.Platform, url: string): { command: string; args: string[] } {
  if (platform === 'darwin') return { command: 'open', args: [url] };
  if (platform === 'win32') return { command: 'cmd', args: ['/c', 'start', '""', url] };
  return { command: 'xdg-open', args: [url] };
}

/** Starts the opener detached; `onFailure` hears why it could not start. */
export function openBrowser(url: string, onFailure: (reason: string) => void): void {
  const { command, args } = browserCommand(process.platform, url);
  try {
    const child = spawn(command, args, { detached: true, stdio: 'ignore' });
    child.once('error', (error) => onFailure(`${command}: ${error.message}`));
    child.unref();
  } catch (error) {
    onFailure(error instanceof Error ? error.message : String(error));
  }
}
