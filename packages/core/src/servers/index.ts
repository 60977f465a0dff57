export {
  isServerDefinition,
  type ServerDefinition,
  type ConfiguredValue,
  type ServerDescription,
} from './ServerDefinition';
export { StdioServer, type StdioServerOptions } from './StdioServer';
export { HTTPServer, type HTTPServerOptions } from './HTTPServer';
export { InProcessServer, type InProcessServerOptions, type SdkServer } from './InProcessServer';
export { checkEndpointTrust, classifyAddress, parseEndpointUrl, type AddressClass } from './endpointTrust';
