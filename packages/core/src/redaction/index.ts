export * from './Redactor';
export * from './SecretRef';
export * from './redactedCause';
export * from './credentialShape';
