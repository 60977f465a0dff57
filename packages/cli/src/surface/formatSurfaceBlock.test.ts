import { formatSurfaceBlock } from './formatSurfaceBlock';
import { formatSurfaceReport } from './formatSurfaceReport';
import { exampleCoverage } from './surfaceCoverage.testkit';

describe('the surface block', () => {
  it('prints each server: tools called and never called, the other measures, what is uncovered or redefined', () => {
    expect(formatSurfaceBlock(exampleCoverage()).join('\n')).toMatchSnapshot();
  });

  it('prints nothing when no execution reached a server', () => {
    expect(formatSurfaceBlock(null)).toEqual([]);
  });

  it('m3 report --surface adds a tool table per server', () => {
    expect(formatSurfaceReport(exampleCoverage())).toMatchSnapshot();
  });
});
