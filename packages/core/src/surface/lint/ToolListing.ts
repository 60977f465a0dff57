/** One earlier `tools/list` answer of a server, as silent_redefinition compares it. */
export interface ToolListing {
  /** Where it was seen, for messages: `tools/list response 1 in this client's trace`, … */
  readonly source: string;
  /** Tool name → its canonical descriptor (`toolDescriptor`). */
  readonly descriptors: ReadonlyMap<string, string>;
}
