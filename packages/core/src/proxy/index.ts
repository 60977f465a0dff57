export * from './toolPolicy';
export * from './ProxyConfig';
export * from './CaptureFile';
export * from './buildProxyCommand';
