import { classifyAuthStep, formBody } from './authStep';

describe('classifyAuthStep', () => {
  const url = (path: string) => new URL(`https://as.example${path}`);
  test.each([
    ['/.well-known/oauth-protected-resource/mcp', 'GET', undefined, 'protected_resource_metadata'],
    ['/.well-known/oauth-authorization-server/tenant', 'GET', undefined, 'authorization_server_metadata'],
    ['/tenant/.well-known/openid-configuration', 'GET', undefined, 'authorization_server_metadata'],
    ['/register', 'POST', '{"redirect_uris":[]}', 'client_registration'],
    ['/token', 'POST', new URLSearchParams({ grant_type: 'authorization_code', code: 'c' }), 'token'],
    ['/token', 'POST', 'grant_type=client_credentials', 'token'],
    ['/token', 'POST', 'grant_type=refresh_token&refresh_token=r', 'refresh'],
  ])('%s %s is %s', (path, method, body, step) => {
    expect(classifyAuthStep(url(path), method, body)).toBe(step);
  });

  test('formBody reads forms, not JSON', () => {
    expect(formBody('grant_type=x&code=y')?.get('code')).toBe('y');
    expect(formBody('{"grant_type":"x"}')).toBeUndefined();
    expect(formBody(undefined)).toBeUndefined();
  });
});
