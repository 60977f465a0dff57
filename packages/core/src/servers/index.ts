export {
  isServerDefinition,
  type ServerDefinition,
  type ConfiguredValue,
  type ServerDescription,
} from './ServerDefinition';
export { StdioServer, type StdioServerOptions } from './StdioServer';
export { commandLineCanaries, redactCommandLine } from './redactCommandLine';
export { HTTPServer, type HTTPServerOptions } from './HTTPServer';
export {
  InProcessServer,
  type InProcessServerOptions,
  type InProcessServerContext,
  type InProcessServerFactory,
  type ModernSdkServer,
  type SdkServer,
} from './InProcessServer';
export { PINNABLE_REVISIONS, PROTOCOL_SETTINGS, type ProtocolRevision, type ProtocolSetting } from './protocolSetting';
export { checkEndpointTrust, classifyAddress, parseEndpointUrl, type AddressClass } from './endpointTrust';
