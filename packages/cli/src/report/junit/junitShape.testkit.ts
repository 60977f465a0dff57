// Reads a JUnit XML report with a real XML parser (@xmldom/xmldom, stopping at any error) and
// checks it has the shape CI readers (GitLab, Jenkins' JUnit plugin, GitHub test reporters) rely
// on — the Ant/Jenkins JUnit schema's elements, attributes and number formats, with <properties>
// allowed in <testcase> as GitLab and pytest write them — and that every count adds up. Returns
// the report as plain data for assertions; throws naming the first problem.
import { DOMParser, onErrorStopParsing, type Element } from '@xmldom/xmldom';

/** One <testcase>. */
export interface JunitCase {
  name: string;
  classname: string;
  file: string | null;
  time: number;
  properties: [string, string][];
  failure: { message: string; type: string; text: string } | null;
  error: { message: string; type: string } | null;
  skipped: { message: string | null } | null;
}

/** One <testsuite>. */
export interface JunitSuite {
  name: string;
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
  time: number;
  timestamp: string;
  properties: [string, string][];
  cases: JunitCase[];
}

/** The <testsuites> root. */
export interface JunitReport {
  name: string;
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
  time: number;
  suites: JunitSuite[];
}

const CASE_CHILDREN = new Set(['properties', 'failure', 'error', 'skipped', 'system-out', 'system-err']);
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})?$/;

function fail(where: string, problem: string): never {
  throw new Error(`JUnit shape: ${where}: ${problem}`);
}

function elements(parent: Element): Element[] {
  const found: Element[] = [];
  for (let node = parent.firstChild; node !== null; node = node.nextSibling) {
    if (node.nodeType === node.ELEMENT_NODE) found.push(node as Element);
    else if (node.nodeType === node.TEXT_NODE && (node.nodeValue ?? '').trim() !== '' && parent.tagName !== 'failure') {
      fail(parent.tagName, 'holds stray text');
    }
  }
  return found;
}

function text(element: Element, name: string, where: string): string {
  const value = element.getAttribute(name);
  if (value === null || value === '') fail(where, `needs a non-empty ${name} attribute`);
  return value;
}

function count(element: Element, name: string, where: string): number {
  const value = text(element, name, where);
  if (!/^\d+$/.test(value)) fail(where, `${name}="${value}" is not a whole number`);
  return Number(value);
}

function seconds(element: Element, where: string): number {
  const value = text(element, 'time', where);
  if (!/^\d+(\.\d+)?$/.test(value)) fail(where, `time="${value}" is not a decimal number of seconds`);
  return Number(value);
}

function properties(element: Element, where: string): [string, string][] {
  return elements(element).map((property) => {
    if (property.tagName !== 'property') fail(where, `<properties> holds <${property.tagName}>`);
    const value = property.getAttribute('value');
    if (value === null) fail(where, 'a <property> has no value attribute');
    return [text(property, 'name', `${where} property`), value];
  });
}

function readCase(element: Element, suite: string): JunitCase {
  const name = text(element, 'name', `testcase in ${suite}`);
  const where = `testcase "${name}"`;
  const result: JunitCase = {
    name,
    classname: text(element, 'classname', where),
    file: element.getAttribute('file'),
    time: seconds(element, where),
    properties: [],
    failure: null,
    error: null,
    skipped: null,
  };
  const children = elements(element);
  children.forEach((child, index) => {
    if (!CASE_CHILDREN.has(child.tagName)) fail(where, `holds <${child.tagName}>`);
    if (child.tagName === 'properties') {
      if (index !== 0) fail(where, '<properties> must come first');
      result.properties = properties(child, where);
    } else if (child.tagName === 'failure') {
      result.failure = {
        message: text(child, 'message', `${where} failure`),
        type: text(child, 'type', `${where} failure`),
        text: child.textContent ?? '',
      };
    } else if (child.tagName === 'error') {
      result.error = { message: text(child, 'message', `${where} error`), type: text(child, 'type', `${where} error`) };
    } else if (child.tagName === 'skipped') {
      result.skipped = { message: child.getAttribute('message') };
    }
  });
  const outcomes = [result.failure, result.error, result.skipped].filter((o) => o !== null).length;
  if (outcomes > 1) fail(where, 'has more than one of <failure>, <error>, <skipped>');
  return result;
}

function readSuite(element: Element): JunitSuite {
  const name = text(element, 'name', 'testsuite');
  const where = `testsuite "${name}"`;
  const timestamp = text(element, 'timestamp', where);
  if (!ISO_INSTANT.test(timestamp)) fail(where, `timestamp="${timestamp}" is not an ISO 8601 instant`);
  const suite: JunitSuite = {
    name,
    tests: count(element, 'tests', where),
    failures: count(element, 'failures', where),
    errors: count(element, 'errors', where),
    skipped: count(element, 'skipped', where),
    time: seconds(element, where),
    timestamp,
    properties: [],
    cases: [],
  };
  elements(element).forEach((child, index) => {
    if (child.tagName === 'properties' && index === 0) suite.properties = properties(child, where);
    else if (child.tagName === 'testcase') suite.cases.push(readCase(child, name));
    else fail(where, `holds <${child.tagName}> (only <properties> first, then <testcase>)`);
  });
  const tally = (pick: (c: JunitCase) => unknown) => suite.cases.filter((c) => pick(c) !== null).length;
  if (suite.tests !== suite.cases.length) fail(where, `tests="${suite.tests}" but it holds ${suite.cases.length}`);
  if (suite.failures !== tally((c) => c.failure)) fail(where, `failures="${suite.failures}" does not match`);
  if (suite.errors !== tally((c) => c.error)) fail(where, `errors="${suite.errors}" does not match`);
  if (suite.skipped !== tally((c) => c.skipped)) fail(where, `skipped="${suite.skipped}" does not match`);
  return suite;
}

/** Parses `xml` strictly and checks its JUnit shape; returns it as data. */
export function parseJunit(xml: string): JunitReport {
  if (!xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>'))
    fail('document', 'needs an XML declaration with UTF-8');
  const document = new DOMParser({ onError: onErrorStopParsing }).parseFromString(xml, 'text/xml');
  const root = document.documentElement;
  if (root === null || root.tagName !== 'testsuites') fail('document', 'the root element must be <testsuites>');
  const report: JunitReport = {
    name: text(root, 'name', 'testsuites'),
    tests: count(root, 'tests', 'testsuites'),
    failures: count(root, 'failures', 'testsuites'),
    errors: count(root, 'errors', 'testsuites'),
    skipped: count(root, 'skipped', 'testsuites'),
    time: seconds(root, 'testsuites'),
    suites: elements(root).map((child) => {
      if (child.tagName !== 'testsuite') fail('testsuites', `holds <${child.tagName}>`);
      return readSuite(child);
    }),
  };
  for (const key of ['tests', 'failures', 'errors', 'skipped'] as const) {
    const sum = report.suites.reduce((total, suite) => total + suite[key], 0);
    if (sum !== report[key]) fail('testsuites', `${key}="${report[key]}" but its suites add up to ${sum}`);
  }
  return report;
}

/** The values of every property named `name`, in order. */
export function propertyValues(owner: { properties: [string, string][] }, name: string): string[] {
  return owner.properties.filter(([key]) => key === name).map(([, value]) => value);
}
