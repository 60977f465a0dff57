export * from './Redactor';
export * from './SecretRef';
export * from './redactedCause';
