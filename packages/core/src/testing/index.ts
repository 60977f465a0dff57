/** @sf-m3/core/testing: fixtures for testing with sf-m3 offline. */
export * from './FakeChatCompletionsServer';
