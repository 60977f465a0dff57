import { surfaceJunitProperties } from './surfaceJunitProperties';
import { exampleCoverage } from './surfaceCoverage.testkit';

describe('surfaceJunitProperties', () => {
  it('names m3.surface.<server>.<measure> with covered/total, or not listed', () => {
    expect(surfaceJunitProperties(exampleCoverage())).toEqual([
      ['m3.surface.billing.tools', 'not listed'],
      ['m3.surface.billing.toolsSucceeded', 'not listed'],
      ['m3.surface.billing.properties', 'not listed'],
      ['m3.surface.billing.enums', 'not listed'],
      ['m3.surface.billing.prompts', 'not listed'],
      ['m3.surface.billing.resources', 'not listed'],
      ['m3.surface.shipping.tools', '7/9'],
      ['m3.surface.shipping.toolsSucceeded', '6/9'],
      ['m3.surface.shipping.properties', '7/9'],
      ['m3.surface.shipping.enums', '2/3'],
      ['m3.surface.shipping.prompts', '1/1'],
      ['m3.surface.shipping.resources', '1/2'],
      ['m3.surface.shipping.neverCalled', 'shipping_cancel, shipping_track'],
    ]);
    expect(surfaceJunitProperties(null)).toEqual([]);
  });
});
