import { ModelValidationError } from '../errors';

/** What `client.listen` asks the server to notify about (contract §23); the same in both eras. */
export interface ListenOptions {
  /** `notifications/tools/list_changed`. */
  toolsChanged?: boolean;
  /** `notifications/prompts/list_changed`. */
  promptsChanged?: boolean;
  /** `notifications/resources/list_changed`. */
  resourcesChanged?: boolean;
  /** `notifications/resources/updated` for these resource URIs. */
  resourceUris?: readonly string[];
}

const FLAGS = ['toolsChanged', 'promptsChanged', 'resourcesChanged'] as const;
const KNOWN = new Set<string>([...FLAGS, 'resourceUris']);

/** Throws `ModelValidationError` naming the problem unless `options` asks for something valid. */
export function checkListenOptions(options: unknown): asserts options is ListenOptions {
  const example = "e.g. client.listen({ toolsChanged: true, resourceUris: ['file:///notes'] })";
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new ModelValidationError(`listen needs an options object, ${example}`, { operation: 'listen' });
  }
  const record = options as Record<string, unknown>;
  const unknown = Object.keys(record).filter((key) => !KNOWN.has(key));
  if (unknown.length > 0) {
    throw new ModelValidationError(
      `listen does not know ${unknown.join(', ')}; it takes toolsChanged, promptsChanged, resourcesChanged and resourceUris`,
      { operation: 'listen', option: unknown[0]! },
    );
  }
  for (const flag of FLAGS) {
    if (record[flag] !== undefined && typeof record[flag] !== 'boolean') {
      throw new ModelValidationError(`listen ${flag} must be true or false`, { operation: 'listen', option: flag });
    }
  }
  const uris = record.resourceUris;
  if (uris !== undefined && (!Array.isArray(uris) || uris.some((u) => typeof u !== 'string' || u.length === 0))) {
    throw new ModelValidationError('listen resourceUris must be an array of resource URIs', {
      operation: 'listen',
      option: 'resourceUris',
    });
  }
  if (!FLAGS.some((flag) => record[flag] === true) && (uris === undefined || uris.length === 0)) {
    throw new ModelValidationError(`listen needs at least one thing to listen for, ${example}`, {
      operation: 'listen',
    });
  }
}
