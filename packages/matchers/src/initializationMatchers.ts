import type { MatcherContext } from 'expect';
import { defineMatcher } from './defineMatcher';
import type { M3MatcherScope, MatcherVerdict } from './defineMatcher';
import { hint, notFinalizedMessage, requireTraceSubject, usageError } from './messages';
import { resolveSubject, type ViewLike } from '@sf-m3/core/internal';

type Bag = Record<string, unknown>;
const isObject = (value: unknown): value is Bag => typeof value === 'object' && value !== null;
const observed = (o: unknown): unknown => (isObject(o) && o.state === 'observed' ? o.value : undefined);

/** What the observed initialization says: every protocol version, transport and capability seen. */
interface InitializationFacts {
  readonly protocolVersions: string[];
  /** `null` when the subject cannot tell (a live client does not expose its transport). */
  readonly transports: string[] | null;
  readonly capabilities: Bag[];
}

function factsFromViews(views: readonly ViewLike[]): InitializationFacts {
  const facts = { protocolVersions: [] as string[], transports: [] as string[], capabilities: [] as Bag[] };
  const add = (list: string[], value: unknown) => {
    if (typeof value === 'string' && !list.includes(value)) list.push(value);
  };
  for (const view of views) {
    const runtime = view.runtime as unknown as Bag;
    const init = observed(runtime.initialization);
    if (isObject(init)) {
      add(facts.protocolVersions, init.protocolVersion);
      if (isObject(init.capabilities)) facts.capabilities.push(init.capabilities);
    }
    add(facts.protocolVersions, observed(runtime.protocolVersion));
    add(facts.transports, observed(runtime.transport));
    for (const entry of view.timeline) {
      if (entry.kind === 'initialization') {
        add(facts.protocolVersions, observed(entry.protocolVersion));
        const caps = observed(entry.capabilities);
        if (isObject(caps)) facts.capabilities.push(caps);
      } else if (entry.kind === 'transport') {
        add(facts.transports, observed(entry.configured));
      }
    }
  }
  return facts;
}

// A live client already knows its initialization; the trace is only needed when it is closed.
function factsFromClient(subject: unknown): InitializationFacts | undefined {
  if (!isObject(subject)) return undefined;
  let init: unknown;
  try {
    init = subject.initialization;
  } catch {
    return undefined;
  }
  if (!isObject(init)) return undefined;
  return {
    protocolVersions: typeof init.protocolVersion === 'string' ? [init.protocolVersion] : [],
    transports: typeof subject.transport === 'string' ? [subject.transport] : null,
    capabilities: isObject(init.capabilities) ? [init.capabilities] : [],
  };
}

/** Reads one fact; `undefined` when these facts cannot say (then the assertion is unusable). */
type Reader = (facts: InitializationFacts) => { pass: boolean; received: unknown } | undefined;

function initializationVerdict(
  context: MatcherContext,
  scope: M3MatcherScope,
  name: string,
  label: string,
  what: string,
  expected: string,
  received: unknown,
  reader: Reader,
): MatcherVerdict {
  if (typeof expected !== 'string' || expected === '') {
    throw usageError(context, name, `${context.utils.EXPECTED_COLOR('expected')} value must be a non-empty string`, {
      label: 'Expected',
      value: expected,
    });
  }
  const resolution = resolveSubject(received);
  const facts = resolution.status === 'resolved' ? factsFromViews(resolution.views) : factsFromClient(received);
  const read = facts === undefined ? undefined : reader(facts);
  if (read === undefined) {
    requireTraceSubject(context, name, resolution, received);
    const reason = resolution.status === 'not_finalized' ? resolution.reason : 'TraceUnavailable';
    return {
      pass: false,
      unusable: true,
      message: () => notFinalizedMessage(context, name, reason, context.isNot === true, label),
    };
  }
  const { pass, received: actual } = read;
  const message = () =>
    `${hint(context, name, label)}\n\n` +
    `Expected ${what}: ${context.isNot ? 'not ' : ''}${context.utils.printExpected(scope.safe(expected))}\n` +
    `Received ${what}: ${context.utils.printReceived(scope.safe(actual))}`;
  return { pass, message };
}

function assertProtocolVersion(this: MatcherContext, scope: M3MatcherScope, received: unknown, version: string) {
  return initializationVerdict(
    this,
    scope,
    'toHaveProtocolVersion',
    'version',
    'protocol version',
    version,
    received,
    (f) => ({
      pass: f.protocolVersions.includes(version),
      received: f.protocolVersions,
    }),
  );
}

function assertTransport(this: MatcherContext, scope: M3MatcherScope, received: unknown, transport: string) {
  return initializationVerdict(this, scope, 'toHaveTransport', 'transport', 'transport', transport, received, (f) =>
    f.transports === null ? undefined : { pass: f.transports.includes(transport), received: f.transports },
  );
}

function assertCapability(this: MatcherContext, scope: M3MatcherScope, received: unknown, capability: string) {
  return initializationVerdict(this, scope, 'toHaveCapability', 'name', 'capability', capability, received, (f) => {
    const names = [...new Set(f.capabilities.flatMap((caps) => Object.keys(caps)))];
    return { pass: names.includes(capability), received: names };
  });
}

/** `expect(subject).toHaveProtocolVersion(v)`: the observed initialization negotiated `v`. */
export const toHaveProtocolVersion = defineMatcher<[version: string]>('toHaveProtocolVersion', assertProtocolVersion);
/** `expect(subject).toHaveTransport(t)`: the observed transport is `t` (`stdio | http | in_process`). */
export const toHaveTransport = defineMatcher<[transport: string]>('toHaveTransport', assertTransport);
/** `expect(subject).toHaveCapability(name)`: the server declared capability `name` at initialization. */
export const toHaveCapability = defineMatcher<[name: string]>('toHaveCapability', assertCapability);
