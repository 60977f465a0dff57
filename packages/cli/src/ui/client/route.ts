// Hash routes, so the same front-end works served and opened from disk: `#/` runs, `#/runs/<id>`,
// `#/executions/<id>`, `#/trends`.
import { useEffect, useState } from 'preact/hooks';

/** A parsed route. */
export type Route =
  { view: 'runs' } | { view: 'run'; runId: string } | { view: 'execution'; executionId: string } | { view: 'trends' };

/** Parses a location hash. */
export function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  if (parts[0] === 'runs' && parts[1]) return { view: 'run', runId: parts[1] };
  if (parts[0] === 'executions' && parts[1]) return { view: 'execution', executionId: parts[1] };
  if (parts[0] === 'trends') return { view: 'trends' };
  return { view: 'runs' };
}

/** Links to each view. */
export const href = {
  runs: (): string => '#/',
  run: (runId: string): string => `#/runs/${encodeURIComponent(runId)}`,
  execution: (executionId: string): string => `#/executions/${encodeURIComponent(executionId)}`,
  trends: (): string => '#/trends',
};

/** The current route, following hash changes. */
export function useRoute(initial: () => Route): Route {
  const [route, setRoute] = useState<Route>(() => (location.hash ? parseRoute(location.hash) : initial()));
  useEffect(() => {
    const onChange = (): void => {
      setRoute(parseRoute(location.hash));
      window.scrollTo(0, 0);
    };
    window.addEventListener('hashchange', onChange);
    // A hash change between the first render and this effect reached no listener: catch up with it.
    if (location.hash) {
      const now = parseRoute(location.hash);
      setRoute((shown) => (JSON.stringify(shown) === JSON.stringify(now) ? shown : now));
    }
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return route;
}
