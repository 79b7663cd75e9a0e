#!/usr/bin/env node
// `npm run check:readme`: what the README and the docs tell a reader to open or run exists. Every
// relative link and image of README.md and docs/*.md resolves to a file of the repository (and a
// `#part` to a heading of that file), and every `npm run <script>`, `npm test` and `npm start` the
// README and the docs name is a script of package.json. Prints each problem as FILE:LINE: ..., and exits 1
// when there is any.
//
//   node scripts/check-readme.mjs

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, posix, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens. */
export function headingAnchor(heading) {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors of a Markdown text's headings (a repeated heading gets -1, -2, … as on GitHub). */
export function anchorsOf(text) {
  const anchors = new Set();
  for (const { raw } of proseLines(text)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(raw);
    if (!heading) continue;
    const base = headingAnchor(heading[1]);
    let anchor = base;
    for (let n = 1; anchors.has(anchor); n++) anchor = `${base}-${n}`;
    anchors.add(anchor);
  }
  return anchors;
}

/** The lines of a Markdown text outside fenced code blocks: as written (`raw`), with code spans blanked (`line`), and their numbers from 1. */
function proseLines(text) {
  const out = [];
  let fence = null;
  text.split('\n').forEach((line, i) => {
    const marker = /^\s*(```+|~~~+)/.exec(line)?.[1];
    if (marker && (fence === null || marker.startsWith(fence))) {
      fence = fence === null ? marker : null;
      return;
    }
    if (fence === null) out.push({ raw: line, line: line.replace(/`+[^`]*`+/g, (code) => ' '.repeat(code.length)), number: i + 1 });
  });
  return out;
}

/** The links and images of a Markdown text outside code: `[text](target)` with their line numbers. */
export function linksOf(text) {
  const links = [];
  for (const { line, number } of proseLines(text)) {
    for (const m of line.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) links.push({ target: m[1], line: number });
  }
  return links;
}

/** The npm scripts a text tells the reader to run, with their line numbers: `npm run x`, `npm test`, `npm start`. */
export function scriptsNamed(text) {
  const named = [];
  text.split('\n').forEach((line, i) => {
    for (const m of line.matchAll(/\bnpm\s+(?:run(?:-script)?\s+(?:--?[\w-]+\s+)*([\w:.-]+)|(test|start)\b)/g)) named.push({ script: (m[1] ?? m[2]).replace(/[:.]+$/, ''), line: i + 1 });
  });
  return named;
}

/**
 * The problems of the documents `files` (path from the repository's root, and text): each
 * relative link that `exists` says is missing, each `#part` that no heading of its file makes,
 * and each npm script it names that is not in `scripts`. Pure: reads nothing itself. `exists` answers
 * 'file', 'folder' or null for a path from the root; `textOf` gives a Markdown file's text.
 */
export function checkDocuments(files, scripts, exists, textOf) {
  const problems = [];
  for (const { path, text } of files) {
    for (const { target, line } of linksOf(text)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) continue; // an address, not a file here
      const [file, anchor] = splitAnchor(target);
      const resolved = file === '' ? path : posix.normalize(posix.join(posix.dirname(path), decodeURIComponent(file))).replace(/(.)\/$/, '$1');
      if (resolved.startsWith('../') || resolved === '..') {
        problems.push(`${path}:${line}: the link ${target} leads out of the repository`);
        continue;
      }
      const kind = exists(resolved);
      if (kind === null) {
        problems.push(`${path}:${line}: the link ${target} leads nowhere: there is no ${resolved}`);
        continue;
      }
      if (anchor && kind === 'file' && resolved.endsWith('.md') && !anchorsOf(textOf(resolved)).has(anchor.toLowerCase())) {
        problems.push(`${path}:${line}: the link ${target} names a part that ${resolved} has no heading for`);
      }
    }
    for (const { script, line } of scriptsNamed(text)) {
      if (!scripts.includes(script)) problems.push(`${path}:${line}: npm ${script === 'test' || script === 'start' ? script : `run ${script}`} names no script of package.json`);
    }
  }
  return problems;
}

function splitAnchor(target) {
  const at = target.indexOf('#');
  return at < 0 ? [target, ''] : [target.slice(0, at), target.slice(at + 1)];
}

function main() {
  const docs = readdirSync(join(REPO, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`);
  const textOf = (path) => readFileSync(join(REPO, path), 'utf8');
  const files = ['README.md', ...docs].map((path) => ({ path, text: textOf(path) }));
  const scripts = Object.keys(JSON.parse(textOf('package.json')).scripts ?? {});
  const exists = (path) => {
    const full = join(REPO, path);
    if (!existsSync(full)) return null;
    return statSync(full).isDirectory() ? 'folder' : 'file';
  };
  const problems = checkDocuments(files, scripts, exists, textOf);
  for (const problem of problems) console.log(problem);
  console.log(
    problems.length
      ? `check:readme: FAILED: ${problems.length} problem(s) in ${files.length} documents`
      : `check:readme: ${files.length} documents, every relative link resolves and every npm script named exists`,
  );
  process.exit(problems.length ? 1 : 0);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) main();
