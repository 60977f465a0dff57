export * from './privateTempDir';
