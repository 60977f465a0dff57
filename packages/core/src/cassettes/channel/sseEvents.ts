/** True when a content type is a server-sent event stream. */
export function isEventStream(contentType: string | undefined): boolean {
  return contentType !== undefined && contentType.toLowerCase().includes('text/event-stream');
}

/**
 * The events of an SSE body, each the raw text of one block without the blank line that ends it
 * (`event: x\ndata: {...}`); line ends normalized to `\n`, empty blocks dropped.
 */
export function splitSseEvents(text: string): string[] {
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n\n+/)
    .filter((block) => block.trim().length > 0)
    .map((block) => block.replace(/^\n+|\n+$/g, ''));
}

/** The SSE body that replays `events`: each event followed by a blank line. */
export function joinSseEvents(events: readonly string[]): string[] {
  return events.map((event) => `${event}\n\n`);
}
