#!/usr/bin/env node
// `npm run check:sizes`: no source file in src/, server/ or bin/ over 400 lines and no function over 80, measured
// with the TypeScript parser. Prints each one over, a summary line, and exits 1 when there is any.
//
//   node scripts/check-sizes.mjs

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** The folders measured, and the kinds of file in them. */
const FOLDERS = ['src/', 'server/', 'bin/'];
const EXTENSIONS = /\.(ts|js|mjs|svelte)$/;
export const FILE_LIMIT = 400;
export const FUNCTION_LIMIT = 80;

/** Lines of a text as an editor numbers them: a final newline ends the last line, it does not start another. */
function lineCount(text) {
  if (text === '') return 0;
  const lines = text.split('\n').length;
  return text.endsWith('\n') ? lines - 1 : lines;
}

/** What a function is called where it is written: its own name, the variable or property it is given to, or `(anonymous)`. */
function functionName(node) {
  if (node.name && !ts.isComputedPropertyName(node.name)) return node.name.getText();
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) && parent.name) return parent.name.getText();
  return '(anonymous)';
}

/** The functions of one piece of script longer than the limit; `firstLine` is the line (from 1) the piece starts on in its file. */
function longFunctions(path, code, firstLine, kind) {
  const source = ts.createSourceFile(path, code, ts.ScriptTarget.Latest, true, kind);
  const found = [];
  const visit = (node) => {
    if (ts.isFunctionLike(node) && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.end).line;
      const lines = end - start + 1;
      if (lines > FUNCTION_LIMIT) found.push({ path, line: firstLine + start, name: functionName(node), lines, limit: FUNCTION_LIMIT });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The `<script>` blocks of a Svelte component: their code and the line (from 1) each starts on. */
function svelteScripts(text) {
  const blocks = [];
  for (const match of text.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)) {
    const codeStart = match.index + match[0].indexOf('>') + 1;
    blocks.push({ code: match[1], firstLine: text.slice(0, codeStart).split('\n').length });
  }
  return blocks;
}

/**
 * What is over the limits in one file, given its path (for the name and the kind of file) and its text: the file itself
 * (`function` absent) when over FILE_LIMIT lines, each function over FUNCTION_LIMIT lines. Pure: reads nothing.
 */
export function measure(path, text) {
  const found = [];
  const lines = lineCount(text);
  if (lines > FILE_LIMIT) found.push({ path, line: null, name: null, lines, limit: FILE_LIMIT });
  if (path.endsWith('.svelte')) {
    for (const block of svelteScripts(text)) found.push(...longFunctions(path, block.code, block.firstLine, ts.ScriptKind.TS));
  } else {
    const kind = path.endsWith('.ts') ? ts.ScriptKind.TS : ts.ScriptKind.JS;
    found.push(...longFunctions(path, text, 1, kind));
  }
  return found;
}

/** One finding as a line of the report. */
export function describe(finding) {
  return finding.name === null
    ? `${finding.path}  is ${finding.lines} lines (limit ${finding.limit})`
    : `${finding.path}:${finding.line}  function ${finding.name} is ${finding.lines} lines (limit ${finding.limit})`;
}

/** The files git tracks in the measured folders. */
function trackedFiles() {
  const listed = execFileSync('git', ['ls-files', '-z', '--', ...FOLDERS], { cwd: REPO, encoding: 'utf8' });
  return listed.split('\0').filter((path) => EXTENSIONS.test(path));
}

function main() {
  const files = trackedFiles();
  const found = files.flatMap((path) => measure(path, readFileSync(resolve(REPO, path), 'utf8')));
  for (const finding of found) console.log(describe(finding));
  const overFiles = found.filter((f) => f.name === null).length;
  const overFunctions = found.length - overFiles;
  console.log(
    found.length
      ? `check:sizes: FAILED: ${overFiles} file(s) over ${FILE_LIMIT} lines and ${overFunctions} function(s) over ${FUNCTION_LIMIT}, in ${files.length} files`
      : `check:sizes: ${files.length} files, none over ${FILE_LIMIT} lines, no function over ${FUNCTION_LIMIT}`,
  );
  process.exit(found.length ? 1 : 0);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) main();
