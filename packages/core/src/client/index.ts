export { DirectClient, type CloseReason, type CloseRequest } from './DirectClient';
export type { ReceivedNotification } from './NotificationLog';
export type { ListenOptions } from './listenOptions';
export { DirectConnection } from './DirectConnection';
export type { DirectClientHost, ExecutionContext } from './DirectClientHost';
export {
  DEFAULT_TIMEOUT_MS,
  type CallToolOptions,
  type DirectClientOptions,
  type ElicitationCallback,
  type LogMessageCallback,
  type ProgressCallback,
  type RootsCallback,
  type SamplingCallback,
  type ServerRequestContext,
} from './DirectClientOptions';
export { listAll, type Page } from './listAll';
export * from './results';
export {
  SCHEMA_VALIDATION_FAILED,
  ToolSchemaValidator,
  type SchemaValidationKind,
  type SchemaViolation,
  type ValidatableTool,
} from './ToolSchemaValidator';
