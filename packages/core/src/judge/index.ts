export * from './JudgeErrorCode';
export * from './judgeConfig';
export * from './judgeReply';
export * from './judgeRequest';
export * from './LLMJudge';
export * from './budget';
