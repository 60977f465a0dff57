export * from './TestAuthorizationServer';
export * from './ProtectedMcpServer';
export type {
  TestAuthorizationFaults,
  TestAuthorizationRequest,
  TestAuthorizationServerOptions,
  TestOAuthClient,
  TestTokenGrant,
} from './testOAuthTypes';
