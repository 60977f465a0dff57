// Types of `sf-m3/testing` (see testing.js).
export * from '@sf-m3/core/testing';
