export * from './kitLink';
export { MCPTestKit, type MCPTestKitOptions } from './MCPTestKit';
export {
  CallTool,
  DirectSpec,
  GetPrompt,
  ListTools,
  Ping,
  ReadResource,
  type DirectSpecOptions,
  type SpecEvaluation,
} from './DirectSpec';
