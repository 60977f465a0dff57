export * from './EvaluationResult';
