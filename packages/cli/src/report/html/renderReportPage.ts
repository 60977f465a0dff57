// The static report's one page: the bundled front-end inlined, the data embedded as a JSON script
// block (never executed, every `<` escaped so no stored value can close the block), and a Content
// Security Policy that allows only these inline blocks and no network at all.
import { createHash } from 'node:crypto';

/** What goes into the page. */
export interface ReportPageParts {
  script: string;
  style: string;
  data: unknown;
  title: string;
}

function sha256(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/** JSON safe inside `<script type="application/json">`: `<`, U+2028 and U+2029 escaped. */
export function embeddableJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Renders the page. A bundle that could close its own script block is refused. */
export function renderReportPage(parts: ReportPageParts): string {
  if (/<\/script/i.test(parts.script) || /<\/style/i.test(parts.style)) {
    throw new Error('the viewer bundle contains a closing </script> or </style> and cannot be inlined');
  }
  const csp = [
    "default-src 'none'",
    `script-src ${sha256(parts.script)}`,
    `style-src ${sha256(parts.style)}`,
    'img-src data:',
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(parts.title)}</title>
<link rel="icon" href="data:,">
<style>${parts.style}</style>
</head>
<body>
<div id="app"></div>
<script type="application/json" id="m3-data">${embeddableJson(parts.data)}</script>
<script>${parts.script}</script>
</body>
</html>
`;
}
