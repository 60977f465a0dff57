export * from './Redactor';
export * from './SecretRef';
