import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { M3Error } from '../errors';
import { DirectConnection } from './DirectConnection';
import { mapSdkError } from './mapSdkError';
import type { SdkSession } from './SdkSession';
import type { PerRequest } from './RequestRunner';

/**
 * The request/notification plumbing the MCP operations of `DirectClient` are built from: every
 * public operation runs through `operation` (open connection required; an exception that escapes
 * is mapped to an `M3Error` and marks the execution failed), every SDK request through `request`
 * (timeout, abort signal, progress, id capture) and every notification through `notify`.
 */
export abstract class DirectOperations extends DirectConnection {
  /** The connected SDK client (only valid inside an operation). */
  protected get sdkClient(): SdkSession {
    return this.sdk as SdkSession;
  }

  /** A public operation: must be open; any exception that escapes marks the execution failed. */
  protected async operation<T>(name: string, body: () => Promise<T>): Promise<T> {
    this.assertOpen(name);
    try {
      return await body();
    } catch (error) {
      const mapped =
        error instanceof M3Error
          ? error
          : mapSdkError(error, {
              operation: name,
              timeoutMs: this.timeoutMs,
              redactor: this.host.redactor,
              cancelled: false,
            });
      this.noteEscaped(mapped);
      throw mapped;
    }
  }

  /** One SDK request with timeout, abort signal, progress and id capture. */
  protected request<T>(
    method: string,
    invoke: (options: RequestOptions) => Promise<T>,
    perCall?: PerRequest,
  ): Promise<T> {
    this.assertOpen(method);
    return this.runner.run(method, invoke, perCall);
  }

  /** Sends a notification through the SDK. */
  protected notify(method: string, send: () => Promise<void>): Promise<void> {
    this.assertOpen(method);
    return this.runner.notify(method, send);
  }
}
