// Type fixture (compiled by DirectClient.types.test.ts, never run): `callTool<T>()` types
// `structuredContent` as `T | undefined`, and without `T` it stays `unknown` (contract §16).
import type { DirectClient, ToolCallResult } from '../../../index';

interface Quote {
  readonly amount: number;
  readonly currency: 'USD';
}

export async function callToolTypes(client: DirectClient): Promise<number> {
  const typed = await client.callTool<Quote>('quote', { weight_kg: 2 });
  const asDeclared: ToolCallResult<Quote> = typed;
  const maybe: Quote | undefined = typed.structuredContent;
  // @ts-expect-error -- structuredContent may be absent, so it is not a plain Quote
  const notChecked: Quote = typed.structuredContent;
  const amount: number = typed.structuredContent?.amount ?? 0;

  const untyped = await client.callTool('quote');
  const unknownContent: unknown = untyped.structuredContent;
  // @ts-expect-error -- without T nothing is known about structuredContent
  const noProperty: number = untyped.structuredContent.amount;
  const plain: ToolCallResult = untyped;
  return [asDeclared, maybe, notChecked, unknownContent, noProperty, plain].length + amount;
}
