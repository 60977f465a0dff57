// The viewer's routes on find-my-way: every API path of apiPaths.ts and the fixed asset table.
// Each route answers JSON (or an asset); unknown paths are 404, bad parameters 400.
import type { IncomingMessage, ServerResponse } from 'node:http';
import Router from 'find-my-way';
import { parseOffset } from '../api/executionsPage';
import { parseTrendQuery } from '../api/trendsPage';
import type { ViewerApi } from '../api/ViewerApi';
import { ViewerBadRequest, ViewerNotFound } from '../api/ViewerNotFound';
import type { ViewerAsset } from './viewerAssets';

/** Writes a JSON answer. */
export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
  response.end(text);
}

/** Writes the viewer's error envelope `{ error: { status, message } }`. */
export function sendError(response: ServerResponse, status: number, message: string): void {
  sendJson(response, status, { error: { status, message } });
}

type Answer = (params: Record<string, string | undefined>, query: Record<string, string>) => Promise<unknown>;

/** Builds the router; `onError` hears unexpected failures (answered 500 without detail). */
export function buildViewerRouter(
  api: ViewerApi,
  assets: ReadonlyMap<string, ViewerAsset>,
  onError: (error: unknown) => void,
): Router.Instance<Router.HTTPVersion.V1> {
  const router = Router({
    ignoreTrailingSlash: true,
    defaultRoute: (_request: IncomingMessage, response: ServerResponse) => sendError(response, 404, 'not found'),
    onBadUrl: (_path: string, _request: IncomingMessage, response: ServerResponse) =>
      sendError(response, 400, 'malformed URL'),
  });
  const json = (path: string, answer: Answer): void => {
    router.on(['GET', 'HEAD'], path, (_request, response, params, _store, query) => {
      answer(params, query).then(
        (body) => sendJson(response, 200, body),
        (error: unknown) => {
          if (error instanceof ViewerNotFound) return sendError(response, 404, error.message);
          if (error instanceof ViewerBadRequest) return sendError(response, 400, error.message);
          onError(error);
          sendError(response, 500, 'the viewer failed to read the results database');
        },
      );
    });
  };
  json('/api/runs', () => api.runs());
  json('/api/runs/:runId', (p) => api.run(p.runId ?? ''));
  json('/api/runs/:runId/surface', (p) => api.surface(p.runId ?? ''));
  json('/api/runs/:runId/executions', (p, q) => api.executions(p.runId ?? '', parseOffset(q.offset)));
  json('/api/executions/:executionId', (p) => api.execution(p.executionId ?? ''));
  json('/api/executions/:executionId/evidence/:evidenceId', (p) =>
    api.evidence(p.executionId ?? '', p.evidenceId ?? ''),
  );
  json('/api/trends/surface', () => api.surfaceTrends());
  json('/api/trends', (_p, q) => {
    const { group, bucket } = parseTrendQuery(q.group, q.bucket);
    return api.trends(group, bucket);
  });
  for (const [path, asset] of assets) {
    router.on(['GET', 'HEAD'], path, (_request, response) => {
      response.writeHead(200, { 'Content-Type': asset.contentType, 'Content-Length': asset.body.length });
      response.end(asset.body);
    });
  }
  return router;
}
