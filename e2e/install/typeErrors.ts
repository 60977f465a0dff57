// Splits tsc's output into errors sf-m3 answers for (in the user's file or in sf-m3/@sf-m3
// declarations) and errors inside other packages' declarations (the MCP SDK's d.ts has one under
// node16 without skipLibCheck), so the entry-point check fails only on ours and prints the rest.

/** One diagnostic: `file(line,col): error TSxxxx: message`, with its continuation lines. */
function diagnostics(output: string): string[] {
  const found: string[] = [];
  for (const line of output.split('\n')) {
    if (/^\S.*\(\d+,\d+\): error TS\d+:/.test(line) || /^error TS\d+:/.test(line)) found.push(line);
    else if (line.trim() !== '' && found.length > 0) found[found.length - 1] += `\n${line}`;
    else if (line.trim() !== '') found.push(line);
  }
  return found;
}

/** Whether a diagnostic is located in a declaration file of a package other than sf-m3's. */
function inThirdPartyDeclaration(diagnostic: string): boolean {
  const match = /^(?:.*\/)?node_modules\/((?:@[^/]+\/)?[^/]+)\/[^(]*\.d\.[cm]?ts\(/.exec(diagnostic);
  return match !== null && match[1] !== 'sf-m3' && !match[1]!.startsWith('@sf-m3/');
}

/** tsc's diagnostics, split into sf-m3's (`ours`, including any unparsed output) and other packages'. */
export function typeErrorsOutsideThirdParty(output: string): { ours: string[]; thirdParty: string[] } {
  const all = diagnostics(output);
  return { ours: all.filter((d) => !inThirdPartyDeclaration(d)), thirdParty: all.filter(inThirdPartyDeclaration) };
}
