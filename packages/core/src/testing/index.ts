/** @sf-m3/core/testing: fixtures for testing with sf-m3 offline. */
export * from './FakeChatCompletionsServer';
export * from './FakeModelServer';
export type {
  FakeModelDialect,
  FakeModelRequest,
  FakeConversationView,
  FakeMessageView,
  FakeToolCallView,
  FakeToolResultView,
  FakeToolView,
} from './fakeModelRequest';
export { lastUserText, offeredTool, trailingToolResults, toolRounds } from './fakeModelRequest';
export type { FakeRequestMatch, FakeRuleOptions, FakeRule } from './fakeModelRules';
export { DEFAULT_FAKE_MODEL_LIMITS, type FakeModelLimits, type FakeLimitViolation } from './fakeModelLimits';
export * from './oauth';
