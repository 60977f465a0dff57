export {
  isServerDefinition,
  type ServerDefinition,
  type ConfiguredValue,
  type ServerDescription,
} from './ServerDefinition';
export { StdioServer, type StdioServerOptions } from './StdioServer';
export { commandLineCanaries, redactCommandLine } from './redactCommandLine';
export { HTTPServer, type HTTPServerOptions } from './HTTPServer';
export { InProcessServer, type InProcessServerOptions, type SdkServer } from './InProcessServer';
export { checkEndpointTrust, classifyAddress, parseEndpointUrl, type AddressClass } from './endpointTrust';
