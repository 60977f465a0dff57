import { FakeModelServer } from './FakeModelServer';

export type { FakeChatReply, FakeToolCall } from './fakeModelReply';
export type { RecordedChatRequest } from './fakeModelRequest';
export type { FakeChatReplySource } from './fakeModelRules';
export type { FakeChatCompletionsServerOptions } from './FakeModelServer';

/**
 * The fake model server under its first name: a loopback OpenAI-compatible Chat Completions endpoint
 * with scripted replies (and, since it grew, the Anthropic Messages and Gemini dialects too). Same as
 * {@link FakeModelServer}.
 *
 * @example
 * const fake = new FakeChatCompletionsServer({ replies: [{ content: { score: 0.9, rationale: 'ok', abstain: false } }] });
 * const { baseUrl } = await fake.start();
 * const judge = new LLMJudge({ model: 'm', baseUrl, auth: 'none', responseMode: 'json_text' });
 */
export class FakeChatCompletionsServer extends FakeModelServer {}
