export * from './M3Error';
export * from './RequiredEvaluationError';
export * from './AuthenticationError';
export * from './CassetteMissError';
