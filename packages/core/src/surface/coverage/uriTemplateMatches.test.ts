import { uriTemplateMatches } from './uriTemplateMatches';

describe('uriTemplateMatches', () => {
  it.each([
    ['memory://orders/{order_id}', 'memory://orders/order-001', true],
    ['memory://orders/{order_id}', 'memory://orders/a/b', false],
    ['memory://orders/{order_id}', 'memory://orders/', false],
    ['file:///{+path}', 'file:///var/log/app.log', true],
    ['search://items{?q,limit}', 'search://items?q=box&limit=2', true],
    ['search://items{?q,limit}', 'search://items', true],
    ['users/{id}.json', 'users/7.json', true],
    ['users/{id}.json', 'users/7xjson', false],
    ['weather://{city}/current', 'weather://Paris/current', true],
  ])('%s vs %s → %s', (template, uri, matches) => {
    expect(uriTemplateMatches(template, uri)).toBe(matches);
  });
});
