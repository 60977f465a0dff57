export * from './fisherExactTest';
export * from './logFactorial';
