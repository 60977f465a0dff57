import { createHash } from 'node:crypto';
import { embeddableJson, renderReportPage } from './renderReportPage';

describe('renderReportPage', () => {
  const data = { message: '</script><script>alert(1)</script><!-- \u2028' };
  const page = renderReportPage({ script: 'console.log(1)', style: 'body{}', data, title: '<run & co>' });

  test('embedded data cannot close its script block and parses back to the same value', () => {
    const json = embeddableJson(data);
    expect(json).not.toContain('<');
    expect(JSON.parse(json)).toEqual(data);
    const block = /<script type="application\/json" id="m3-data">([^]*?)<\/script>/.exec(page)![1]!;
    expect(JSON.parse(block)).toEqual(data);
    expect(page).toContain('<title>&#60;run &#38; co&#62;</title>');
  });

  test('the CSP allows exactly the inline script and style, and no network', () => {
    const hash = (text: string) => createHash('sha256').update(text).digest('base64');
    const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(page)![1]!;
    expect(csp).toContain(`script-src 'sha256-${hash('console.log(1)')}'`);
    expect(csp).toContain(`style-src 'sha256-${hash('body{}')}'`);
    expect(csp).toContain("default-src 'none'");
  });

  test('a bundle that could close its own block is refused', () => {
    expect(() => renderReportPage({ script: 'x="</script>"', style: '', data: {}, title: 't' })).toThrow(
      /cannot be inlined/,
    );
  });
});
