import type { MatcherContext } from 'expect';
import { lintTools, M3Error, type ToolLintOptions, type ToolLintReport, type ToolLintViolation } from '@sf-m3/core';
import { toolListingMemory, toolListingOrigin, traceToolListings } from '@sf-m3/core/internal';
import { defineMatcher } from './defineMatcher';
import type { M3MatcherScope, MatcherVerdict } from './defineMatcher';
import { hint, usageError } from './messages';

/** Most violations listed in one failure message. */
const MAX_LISTED = 30;

function listViolations(violations: readonly ToolLintViolation[]): string {
  const shown = violations.slice(0, MAX_LISTED).map((v, i) => `  ${i + 1}. ${v.message}`);
  if (violations.length > MAX_LISTED) shown.push(`  … and ${violations.length - MAX_LISTED} more`);
  return shown.join('\n');
}

function lint(context: MatcherContext, received: readonly unknown[], options: unknown): ToolLintReport {
  const origin = toolListingOrigin(received);
  try {
    return lintTools(received, options, {
      earlierListings: origin === undefined ? [] : toolListingMemory().listings(origin.server),
      traceListings: origin === undefined ? [] : traceToolListings(origin.traceEvents()),
    });
  } catch (error) {
    if (error instanceof M3Error && error.code === 'invalid_lint_options') {
      throw usageError(context, 'toPassToolLint', error.message);
    }
    throw error;
  }
}

function assertToolLint(
  this: MatcherContext,
  _scope: M3MatcherScope,
  received: unknown,
  options?: ToolLintOptions,
): MatcherVerdict {
  const name = 'toPassToolLint';
  if (!Array.isArray(received)) {
    throw usageError(
      this,
      name,
      `${this.utils.RECEIVED_COLOR('received')} value must be the array of tools a server listed: ` +
        'expect(await client.listAllTools()).toPassToolLint()',
      { label: 'Received', value: received },
    );
  }
  const report = lint(this, received, options);
  const origin = toolListingOrigin(received);
  const tools = received.length;
  const failing = new Set(report.violations.map((v) => v.tool)).size;
  const allowed =
    report.allowed.length > 0
      ? `\n\n${report.allowed.length} allowed by options.allow:\n${listViolations(report.allowed)}`
      : '';
  const server = origin === undefined ? '' : ` of server ${JSON.stringify(origin.server)}`;
  const subject = `the ${tools} tool${tools === 1 ? '' : 's'}${server}`;
  const pass = report.violations.length === 0;
  const message = () =>
    `${hint(this, name, 'options')}\n\n` +
    (this.isNot
      ? `Expected: ${subject} ${this.utils.EXPECTED_COLOR('to break at least one lint rule')}\n` +
        `Received: ${this.utils.RECEIVED_COLOR('no violations')} of ${report.rules.length} rules (${report.rules.join(', ')})`
      : `Expected: ${subject} ${this.utils.EXPECTED_COLOR(`to pass ${report.rules.length} lint rules`)}\n` +
        `Received: ${this.utils.RECEIVED_COLOR(
          `${report.violations.length} violation${report.violations.length === 1 ? '' : 's'} in ${failing} tool${failing === 1 ? '' : 's'}`,
        )}\n\n${listViolations(report.violations)}`) +
    allowed;
  return { pass, message, ...(origin !== undefined && { executionId: origin.executionId }) };
}

/**
 * `expect(await client.listAllTools()).toPassToolLint(options?)`: the tools pass the lint rules of
 * contract §25 (names, descriptions, hidden characters, model-directed text, schemas, silent
 * redefinition). Offline: nothing is sent anywhere.
 */
export const toPassToolLint = defineMatcher<[options?: ToolLintOptions]>('toPassToolLint', assertToolLint);
