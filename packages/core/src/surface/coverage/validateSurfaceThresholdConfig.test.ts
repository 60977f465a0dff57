import { ModelValidationError } from '../../errors';
import { validateSurfaceThresholdConfig } from './validateSurfaceThresholdConfig';

describe('validateSurfaceThresholdConfig', () => {
  it('accepts global and server entries of known measures from 0 to 100', () => {
    const config = { global: { tools: 80, enums: 0 }, shipping: { toolsSucceeded: 100, resources: 12.5 } };
    expect(validateSurfaceThresholdConfig(config)).toEqual(config);
  });

  it.each([
    [[], /m3\.surfaceThreshold must be an object of "global" and server names/],
    [
      { global: 80 },
      /m3\.surfaceThreshold\.global must be an object of measures .* write e\.g\. "global": \{ "tools": 80 \}/,
    ],
    [
      { global: { tool: 80 } },
      /m3\.surfaceThreshold\.global\.tool is not a surface measure: use one of tools, toolsSucceeded/,
    ],
    [{ shipping: { tools: 101 } }, /m3\.surfaceThreshold\.shipping\.tools must be a percentage from 0 to 100, got 101/],
    [
      { shipping: { tools: '80' } },
      /m3\.surfaceThreshold\.shipping\.tools must be a percentage from 0 to 100, got "80"/,
    ],
    [{ ' ': { tools: 1 } }, /m3\.surfaceThreshold has an empty key/],
  ])('refuses %j naming the key and the fix', (value, message) => {
    expect(() => validateSurfaceThresholdConfig(value)).toThrow(ModelValidationError);
    expect(() => validateSurfaceThresholdConfig(value)).toThrow(message);
  });
});
