export * from './kitLink';
