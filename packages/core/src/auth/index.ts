export type { BearerAuth, HttpAuth, OAuthAuth, ProviderAuth, TokenEndpointAuthMethod } from './HttpAuth';
