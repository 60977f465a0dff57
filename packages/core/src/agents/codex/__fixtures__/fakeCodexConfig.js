'use strict';
// Reads the TOML the codex harness writes (tables, dotted/quoted table names, `key = value` with
// strings, numbers, booleans, string arrays and inline tables of strings) for fake-codex.js.
// Anything else is an error naming the line: the fixture must not silently misread a config.
const { readFileSync } = require('node:fs');

/** Splits `a."b.c".d` into ['a', 'b.c', 'd']. */
function tableName(text) {
  const parts = [];
  const re = /\s*(?:"((?:[^"\\]|\\.)*)"|([A-Za-z0-9_-]+))\s*(?:\.|$)/gy;
  let match;
  while (re.lastIndex < text.length && (match = re.exec(text)) !== null) {
    parts.push(match[1] !== undefined ? JSON.parse(`"${match[1]}"`) : match[2]);
  }
  return parts;
}

function value(text, where) {
  const t = text.trim();
  if (t === 'true' || t === 'false') return t === 'true';
  if (/^-?\d+(\.\d+)?$/.test(t)) return Number(t);
  if (t.startsWith('"') || t.startsWith('[')) return JSON.parse(t);
  if (t.startsWith('{')) {
    // { "a" = "b", "c" = "d" } -> JSON object
    return JSON.parse(t.replace(/"\s*=\s*"/g, '": "').replace(/^\{\s*\}$/, '{}'));
  }
  throw new Error(`${where}: fake-codex cannot read the value ${t}`);
}

/** The config as nested objects. */
function readCodexConfig(path) {
  const root = {};
  let table = root;
  readFileSync(path, 'utf8')
    .split('\n')
    .forEach((raw, index) => {
      const line = raw.trim();
      const where = `${path}:${index + 1}`;
      if (line === '' || line.startsWith('#')) return;
      const header = line.match(/^\[(.+)\]$/);
      if (header !== null) {
        table = root;
        for (const part of tableName(header[1])) table = table[part] ??= {};
        return;
      }
      const eq = line.indexOf('=');
      if (eq === -1) throw new Error(`${where}: fake-codex cannot read ${line}`);
      const key = line
        .slice(0, eq)
        .trim()
        .replace(/^"(.*)"$/, '$1');
      table[key] = value(line.slice(eq + 1), where);
    });
  return root;
}

module.exports = { readCodexConfig };
