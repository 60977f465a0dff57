export * from './M3Error';
export * from './RequiredEvaluationError';
