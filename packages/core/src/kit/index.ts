export * from '../ownership/kitLink';
export { MCPTestKit, type MCPTestKitOptions, type DirectExecutionOptions } from './MCPTestKit';
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
