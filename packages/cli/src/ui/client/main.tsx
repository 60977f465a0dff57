// The viewer's front-end: a hash-routed Preact app over the viewer API (or a static report's
// embedded answers). Every stored value is rendered as text; nothing is inserted as markup.
import { render } from 'preact';
import 'uplot/dist/uPlot.min.css';
import './styles.css';
import { embeddedData } from './dataSource';
import { href, useRoute, type Route } from './route';
import { ExecutionView } from './views/ExecutionView';
import { RunsView } from './views/RunsView';
import { RunView } from './views/RunView';
import { TrendsView } from './views/TrendsView';

function initialRoute(): Route {
  const data = embeddedData();
  return data === null ? { view: 'runs' } : { view: 'run', runId: data.runId };
}

function App() {
  const route = useRoute(initialRoute);
  const data = embeddedData();
  return (
    <>
      <header class="top">
        <a class="brand" href={href.runs()}>
          m3 viewer
        </a>
        <nav>
          <a href={href.runs()}>Runs</a>
          <a href={href.trends()}>Trends</a>
        </nav>
        <span class="muted">
          {data === null ? 'read-only · local' : `static report of ${data.runId}, generated ${data.generatedAt}`}
        </span>
      </header>
      <main data-view={route.view}>
        {route.view === 'runs' ? <RunsView /> : null}
        {route.view === 'run' ? <RunView key={route.runId} runId={route.runId} /> : null}
        {route.view === 'execution' ? <ExecutionView key={route.executionId} executionId={route.executionId} /> : null}
        {route.view === 'trends' ? <TrendsView /> : null}
      </main>
    </>
  );
}

render(<App />, document.getElementById('app')!);
