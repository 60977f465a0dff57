import type { JsonObject, JsonValue } from '../../json';
import { notEmitted, observed } from '../Observation';
import type { InteractionEntry } from '../TraceEntry';
import type { RpcExchange } from './pairExchanges';
import { entryBase, isJsonObject, stringField, type ProjectionContext } from './ProjectionContext';

/** Interaction kinds of the requests a 2026-07-28 server embeds in an `input_required` result. */
const INPUT_KINDS: Record<string, string> = {
  'elicitation/create': 'elicitation',
  'sampling/createMessage': 'sampling',
  'roots/list': 'roots',
};

/** The `input_required` result an exchange got (2026-07-28 multi-round-trip requests), if any. */
function inputRequiredResult(exchange: RpcExchange): JsonObject | undefined {
  const result = exchange.response?.payload.result;
  return isJsonObject(result) && result.resultType === 'input_required' ? result : undefined;
}

/** What identifies one logical request across its rounds: the method and the tool/prompt/resource. */
function callKey(exchange: RpcExchange): string {
  const params = exchange.request.payload.params;
  const target = isJsonObject(params) ? (params.name ?? params.uri ?? '') : '';
  return `${stringField(exchange.request.payload, 'method') ?? ''}\u0000${String(target)}`;
}

/**
 * Splits off the `input_required` rounds of `tools/call`, `prompts/get` and `resources/read`
 * (contract §23): an exchange answered with `resultType: 'input_required'` is not a call of its own
 * but a round of the call that the client retries, so each of its `inputRequests` becomes an
 * `interaction` entry (`round` from 1, `inputKey`, the request, and the answer the retry carried in
 * `inputResponses`). The other exchanges are returned unchanged, in order; `roundsBefore` gives,
 * for an exchange that ended a call after input rounds, how many rounds that call took.
 */
export function splitInputRounds(
  context: ProjectionContext,
  exchanges: readonly RpcExchange[],
): { rest: RpcExchange[]; rounds: InteractionEntry[]; roundsBefore: Map<RpcExchange, number> } {
  const rest: RpcExchange[] = [];
  const rounds: InteractionEntry[] = [];
  const roundsBefore = new Map<RpcExchange, number>();
  const roundOf = new Map<string, number>();
  exchanges.forEach((exchange, index) => {
    const result = inputRequiredResult(exchange);
    const key = callKey(exchange);
    if (result === undefined) {
      rest.push(exchange);
      const taken = roundOf.get(key);
      if (taken !== undefined) roundsBefore.set(exchange, taken);
      if (exchange.response !== undefined) roundOf.delete(key);
      return;
    }
    const round = (roundOf.get(key) ?? 0) + 1;
    roundOf.set(key, round);
    const retry = exchanges.slice(index + 1).find((later) => callKey(later) === key);
    const retryParams = retry?.request.payload.params;
    const answers =
      isJsonObject(retryParams) && isJsonObject(retryParams.inputResponses) ? retryParams.inputResponses : {};
    const requests = isJsonObject(result.inputRequests) ? result.inputRequests : {};
    for (const [inputKey, request] of Object.entries(requests)) {
      const method = isJsonObject(request) ? stringField(request, 'method') : undefined;
      const answer: JsonValue | undefined = answers[inputKey];
      rounds.push({
        ...entryBase(context, 'interaction', [exchange.request, exchange.response, retry?.request], 'completed'),
        interactionKind: INPUT_KINDS[method ?? ''] ?? method ?? 'unknown',
        request: isJsonObject(request) && request.params !== undefined ? observed(request.params) : notEmitted(),
        response: answer === undefined ? notEmitted() : observed(answer),
        round,
        inputKey,
      });
    }
  });
  return { rest, rounds, roundsBefore };
}
