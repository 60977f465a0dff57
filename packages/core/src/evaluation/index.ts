export * from './EvaluationResult';
export * from './EvaluatorCallback';
export * from './EvaluationEngine';
export * from './builtins';
export * from './boundedRationale';
export * from './normalizeVerdict';
export * from './subjectDigest';
