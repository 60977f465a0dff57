// A hook that loads one API path and re-loads when it changes.
import { useEffect, useState } from 'preact/hooks';
import { load } from './dataSource';

/** The state of a load. */
export type Loaded<T> = { status: 'loading' } | { status: 'error'; message: string } | { status: 'ready'; data: T };

/** Loads `path` (nothing while it is null). */
export function useLoad<T>(path: string | null): Loaded<T> {
  const [state, setState] = useState<Loaded<T>>({ status: 'loading' });
  useEffect(() => {
    if (path === null) return;
    let live = true;
    setState({ status: 'loading' });
    load<T>(path).then(
      (data) => live && setState({ status: 'ready', data }),
      (error: unknown) =>
        live && setState({ status: 'error', message: error instanceof Error ? error.message : String(error) }),
    );
    return () => {
      live = false;
    };
  }, [path]);
  return state;
}
