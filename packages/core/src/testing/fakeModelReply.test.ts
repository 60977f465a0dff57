import { resolveReply, withOfferedToolNames } from './fakeModelReply';

const reply = (...names: string[]) =>
  resolveReply({ toolCalls: names.map((name) => ({ name, arguments: { city: 'Oslo' } })) }, 1, 'call_');

describe('withOfferedToolNames', () => {
  it('sends a short scripted name under the one offered name it ends', () => {
    const offered = ['mcp_weather_forecast', 'mcp__weather__alerts', 'weather_radar'];
    const names = withOfferedToolNames(reply('forecast', 'alerts', 'radar'), offered).toolCalls.map((c) => c.name);
    expect(names).toEqual(['mcp_weather_forecast', 'mcp__weather__alerts', 'weather_radar']);
  });

  it('keeps a name offered as such, a name nothing offered matches, and an ambiguous one', () => {
    const offered = ['forecast', 'a_quote', 'b_quote'];
    const names = withOfferedToolNames(reply('forecast', 'delete_city', 'quote'), offered).toolCalls.map((c) => c.name);
    expect(names).toEqual(['forecast', 'delete_city', 'quote']);
  });

  it('does not take a name that only ends the same letters', () => {
    expect(withOfferedToolNames(reply('cast'), ['forecast']).toolCalls[0]!.name).toBe('cast');
  });
});
