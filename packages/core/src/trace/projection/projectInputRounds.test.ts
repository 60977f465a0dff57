import type { JsonObject } from '../../json';
import { TraceEventListBuilder } from '@sf-m3/test-utils/trace';
import { pairExchanges } from './pairExchanges';
import type { ProjectionContext } from './ProjectionContext';
import { splitInputRounds } from './projectInputRounds';

const elicit = (message: string) => ({
  method: 'elicitation/create',
  params: { message, requestedSchema: { type: 'object', properties: {} } },
});

function callRound(b: TraceEventListBuilder, id: number, params: JsonObject, result: JsonObject): void {
  const on = { connectionId: 'c', jsonrpcId: id };
  b.add('tool.call_requested', { ...on, direction: 'client_to_server', payload: { method: 'tools/call', params } });
  b.add('tool.result_received', { ...on, direction: 'server_to_client', payload: { method: 'tools/call', result } });
}

function split(b: TraceEventListBuilder) {
  const context: ProjectionContext = {
    executionId: 'exec-1',
    runtimeKind: 'direct',
    defaultServer: 'v2',
    events: b.events,
    toolLists: new Map(),
  };
  return splitInputRounds(context, pairExchanges(b.events).exchanges);
}

describe('splitInputRounds', () => {
  it('turns each input of each input_required round into an interaction, keeping the final call', () => {
    const b = new TraceEventListBuilder();
    const args = { name: 'deploy', arguments: {} };
    callRound(b, 1, args, {
      resultType: 'input_required',
      inputRequests: { confirm: elicit('Sure?'), roots: { method: 'roots/list' } },
      requestState: 's1',
    });
    callRound(
      b,
      2,
      { ...args, inputResponses: { confirm: { action: 'accept', content: { ok: true } } }, requestState: 's1' },
      { resultType: 'input_required', inputRequests: { again: elicit('Really?') }, requestState: 's2' },
    );
    callRound(
      b,
      3,
      { ...args, inputResponses: { again: { action: 'decline' } }, requestState: 's2' },
      { resultType: 'complete', content: [{ type: 'text', text: 'done' }] },
    );
    const { rest, rounds } = split(b);
    expect(rest).toHaveLength(1);
    expect(rest[0]!.request.jsonrpcId).toBe(3);
    expect(rounds.map((r) => [r.round, r.inputKey, r.interactionKind, r.response])).toEqual([
      [1, 'confirm', 'elicitation', { state: 'observed', value: { action: 'accept', content: { ok: true } } }],
      [1, 'roots', 'roots', { state: 'not_emitted', value: null, reason: 'provider_did_not_emit' }],
      [2, 'again', 'elicitation', { state: 'observed', value: { action: 'decline' } }],
    ]);
    expect(rounds[0]!.request).toEqual({ state: 'observed', value: elicit('Sure?').params });
  });

  it('leaves calls without rounds alone, and counts rounds per call', () => {
    const b = new TraceEventListBuilder();
    callRound(b, 1, { name: 'a' }, { content: [] });
    callRound(b, 2, { name: 'b' }, { resultType: 'input_required', inputRequests: { k: elicit('?') } });
    callRound(b, 3, { name: 'b', inputResponses: { k: { action: 'cancel' } } }, { content: [] });
    callRound(b, 4, { name: 'b' }, { resultType: 'input_required', inputRequests: { k: elicit('?') } });
    const { rest, rounds } = split(b);
    expect(rest.map((x) => x.request.jsonrpcId)).toEqual([1, 3]);
    expect(rounds.map((r) => r.round)).toEqual([1, 1]);
  });
});
