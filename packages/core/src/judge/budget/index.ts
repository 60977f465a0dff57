export * from './JudgeBudget';
