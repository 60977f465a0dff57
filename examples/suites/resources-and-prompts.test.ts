// Resources, templates, prompts and completions.
import { exampleServer } from './servers';

describe.m3('resources and prompts', () => {
  test('read a resource', async () => {
    const client = await m3Kit.direct(exampleServer).connect();
    const resources = await client.listAllResources();
    expect(resources.map((resource) => resource.uri)).toEqual(['memory://testing-guide']);

    const guide = await client.readResource('memory://testing-guide');
    expect(guide.text).toContain('Discover capabilities');
    expect(guide).toHaveTextContaining('# Testing guide');

    const templates = await client.listAllResourceTemplates();
    expect(templates[0]?.uriTemplate).toBe('memory://orders/{order_id}');
  });

  test('render a prompt with arguments and complete its argument', async () => {
    const client = await m3Kit.direct(exampleServer).connect();
    const prompts = await client.listAllPrompts();
    expect(prompts.map((prompt) => prompt.name)).toEqual(['review_order']);

    const prompt = await client.getPrompt('review_order', { order_id: 'order-042' });
    expect(prompt.description).toBe('Review a stored order');
    expect(prompt.messages[0]?.content).toEqual({ type: 'text', text: 'Review order order-042 for correctness.' });

    const completion = await client.complete(
      { type: 'ref/prompt', name: 'review_order' },
      { name: 'order_id', value: 'order-' },
    );
    expect(completion).toEqual({ values: ['order-001', 'order-002'], total: 2, hasMore: false });
  });
});
