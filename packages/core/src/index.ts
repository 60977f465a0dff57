/** @sf-m3/core: everything sf-m3 does without Jest. Importing this module performs no I/O. */
export * from './json';
export * from './ids';
export * from './errors';
export * from './enums';
export * from './redaction';
export * from './logging';
export * from './trace';
export * from './servers';
export * from './client';
export * from './execution';
export * from './evaluation';
export * from './judge';
export * from './store';
export * from './kit';
export * from './proxy';
export * from './matrix';
export * from './agents';
