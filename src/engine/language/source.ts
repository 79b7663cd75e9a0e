// A parsed flow document with the means to turn a path (["states", "ask_name", "ui"]) back into
// a line and column, so every diagnostic points at the node it is about.

import { isAlias, isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, visit, type Document, type Node, type Pair, type YAMLError, type YAMLMap } from 'yaml';
import type { Diagnostic, DiagnosticCode, Severity } from './diagnostics.ts';
import type { SourcePath } from './flow.ts';
import { MAX_DEPTH, MAX_FLOW_CHARS, tooDeep } from './limits.ts';

export interface FlowSource {
  file: string;
  doc: Document.Parsed;
  lines: LineCounter;
  /** the document as plain data (null when YAML failed) */
  data: unknown;
  diagnostics: Diagnostic[];
}

const TOO_DEEP = `this is nested more than ${MAX_DEPTH} levels deep; a flow file may nest mappings and lists ${MAX_DEPTH} levels at most`;

/**
 * Parses YAML text, collecting syntax errors as diagnostics. Never throws. A file over
 * MAX_FLOW_CHARS is not parsed, and one nested deeper than MAX_DEPTH is not turned into data, so
 * no later walk over the document can run long or exhaust the stack.
 */
export function readFlowSource(text: string, file: string): FlowSource {
  const lines = new LineCounter();
  if (text.length > MAX_FLOW_CHARS) {
    const message = `the file has ${text.length} characters; a flow file may have at most ${MAX_FLOW_CHARS} (256 KiB)`;
    const diagnostics: Diagnostic[] = [{ file, line: 1, col: 1, severity: 'error', code: 'too-large', message }];
    return { file, doc: parseDocument('', { lineCounter: lines }), lines, data: null, diagnostics };
  }
  // Merge keys (`<<: *base`) put a mapping's entries into another, as YAML 1.1 has them.
  // logLevel error: the yaml package's warnings (a mapping as a key) are said here as diagnostics, never on stderr.
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true, merge: true, logLevel: 'error' });
  const diagnostics: Diagnostic[] = onePerConstruct(doc.errors, text, lines).map((e) => yamlProblem(doc, lines, file, e, text));
  if (doc.errors.length === 0) diagnostics.push(...collectionKeys(doc, lines, file));
  const src: FlowSource = { file, doc, lines, data: null, diagnostics };
  if (diagnostics.length === 0) {
    try {
      src.data = doc.toJS({ maxAliasCount: 100 });
    } catch (e) {
      const deep = e instanceof RangeError;
      diagnostics.push({ file, line: 1, col: 1, severity: 'error', code: deep ? 'too-deep' : 'yaml-syntax', message: deep ? TOO_DEEP : (e as Error).message });
    }
    const deepAt = tooDeep(src.data);
    if (deepAt) {
      src.data = null;
      diagnostics.push({ file, ...positionOf(src, deepAt), severity: 'error', code: 'too-deep', message: TOO_DEEP });
    }
  }
  return src;
}

/**
 * Keys written as a mapping or a list (`{ en: Room, fr: Chambre }: "{room}"`): a key is a name,
 * and the yaml package would turn one into its text. Under a card's `params` the fix is the list
 * form, whose labels may be given per language.
 */
function collectionKeys(doc: Document.Parsed, lines: LineCounter, file: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  visit(doc, {
    Pair(_, pair, path) {
      if (!isMap(pair.key) && !isSeq(pair.key)) return;
      const holder = [...path].reverse().find((n) => isPair(n)) as Pair | undefined;
      const inParams = holder !== undefined && isScalar(holder.key) && holder.key.value === 'params';
      const message = inParams
        ? 'a label of params is a key, so it cannot be a text map: to give labels in several languages, write params as a list, - { label: { en: Room, fr: Chambre }, value: "{room_number}" }'
        : `a key is a name, not a ${isMap(pair.key) ? 'mapping' : 'list'}: write it as text`;
      const at = lines.linePos(offsetOf(pair.key) ?? 0);
      out.push({ file, ...at, severity: 'error', code: 'wrong-type', message });
    },
  });
  return out;
}

/**
 * The syntax errors worth reporting: one per broken construct. A construct is the line an error
 * starts on and the lines indented deeper under it; the yaml package reports each of those lines
 * again (one misplaced mapping gave 15), while the fix is one. Repeated keys are each reported.
 */
function onePerConstruct(errors: readonly YAMLError[], text: string, lines: LineCounter): YAMLError[] {
  const textLines = text.split('\n');
  const indent = (line: number) => /^ */.exec(textLines[line - 1] ?? '')![0].length;
  const kept: YAMLError[] = [];
  let until = 0; // the last line of the construct of the last error kept
  for (const e of [...errors].sort((a, b) => a.pos[0] - b.pos[0])) {
    const { line } = lines.linePos(e.pos[0]);
    if (e.code !== 'DUPLICATE_KEY' && line <= until) continue;
    kept.push(e);
    if (e.code === 'DUPLICATE_KEY') continue;
    until = line;
    while (until < textLines.length && (/^\s*(#.*)?$/.test(textLines[until]!) || indent(until + 1) > indent(line))) until++;
  }
  return kept;
}

/** What went wrong at a syntax error, said with its fix where the error is a common one. */
function yamlMessage(e: YAMLError, text: string, lines: LineCounter): string {
  const { line, col } = lines.linePos(e.pos[0]);
  const textLines = text.split('\n');
  const here = textLines[line - 1] ?? '';
  const next = textLines.slice(line).find((l) => !/^\s*(#.*)?$/.test(l));
  const indent = (l: string) => /^ */.exec(l)![0].length;
  if (e.code === 'BLOCK_AS_IMPLICIT_KEY' || e.code === 'MULTILINE_IMPLICIT_KEY') {
    const pair = /^\s*(?:- )?([^:#{}\[\]]+?):\s+(.*\S)\s*$/.exec(here);
    const before = here.slice(0, col - 1);
    if (/^\s*(?:- )?[^:#{}\[\]]+:\s+$/.test(before) && /^[^\s:#]+:(\s|$)/.test(here.slice(col - 1))) {
      return `a key cannot follow another key on the same line ("${here.trim()}"): put "${here.slice(col - 1).trim()}" on a line of its own under "${before.trim()}", indented further`;
    }
    if (pair && next !== undefined && indent(next) > indent(here)) {
      return `"${pair[1]!.trim()}" has its value on its own line ("${pair[2]}"), so the lines indented further below it cannot belong to it: line them up with "${pair[1]!.trim()}", or indent them less`;
    }
  }
  if (e.code === 'MULTIPLE_DOCS') return 'a flow file holds one YAML document: remove this "---" and what follows, or split the file';
  return e.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
}

/** One of the yaml package's errors as a diagnostic. */
function yamlProblem(doc: Document.Parsed, lines: LineCounter, file: string, e: YAMLError, text: string): Diagnostic {
  const { line, col } = lines.linePos(e.pos[0]);
  // The yaml package gives up on nesting where the call stack runs out: far past the limit.
  if (e.code === 'RESOURCE_EXHAUSTION') return { file, line, col, severity: 'error', code: 'too-deep', message: TOO_DEEP };
  const key = e.code === 'DUPLICATE_KEY' ? keyAt(doc, e.pos[0]) : undefined;
  const message = key !== undefined ? `key "${key}" is given twice in this mapping` : yamlMessage(e, text, lines);
  return { file, line, col, severity: 'error', code: e.code === 'DUPLICATE_KEY' ? 'duplicate-key' : 'yaml-syntax', message };
}

/** The text of the mapping key that starts at `offset`, if there is one. */
function keyAt(doc: Document.Parsed, offset: number): string | undefined {
  let found: string | undefined;
  visit(doc, {
    Pair(_, pair) {
      if (isScalar(pair.key) && pair.key.range?.[0] === offset) {
        found = String(pair.key.value);
        return visit.BREAK;
      }
    },
  });
  return found;
}

function offsetOf(node: unknown): number | undefined {
  const range = (node as Node | null)?.range;
  return range ? range[0] : undefined;
}

/**
 * The position of the node at `path`. With `key`, the position of the last segment's key rather
 * than its value. Falls back to the deepest node that exists.
 */
export function positionOf(src: FlowSource, path: SourcePath, key = false): { line: number; col: number } {
  let node: unknown = src.doc.contents;
  let offset = offsetOf(node) ?? 0;
  for (let i = 0; i < path.length; i++) {
    const seg = path[i];
    const last = i === path.length - 1;
    // An alias (`*scale`) stands for what its anchor holds: a problem inside it is where that is written.
    if (isAlias(node)) node = node.resolve(src.doc);
    if (isMap(node)) {
      const pair = pairOf(src.doc, node, String(seg));
      if (!pair) break;
      const keyOffset = offsetOf(pair.key);
      if (last && key) {
        offset = keyOffset ?? offset;
        break;
      }
      node = pair.value;
      offset = offsetOf(node) ?? keyOffset ?? offset;
    } else if (isSeq(node) && typeof seg === 'number') {
      const item = node.items[seg];
      if (item === undefined) break;
      node = item;
      offset = offsetOf(node) ?? offset;
    } else break;
  }
  return src.lines.linePos(offset);
}

/** Whether a pair is a merge (`<<: *base`). */
function isMerge(pair: Pair): boolean {
  return isScalar(pair.key) && (pair.key.value === '<<' || (typeof pair.key.value === 'symbol' && pair.key.value.description === '<<'));
}

/**
 * The pair of `key` in a mapping: its own, or one a merge key (`<<: *base`, `<<: [*a, *b]`) brings
 * in, found where the merged mapping is written, which is where its fix belongs.
 */
function pairOf(doc: Document.Parsed, map: YAMLMap, key: string, depth = 0): Pair | undefined {
  const own = map.items.find((p) => isPair(p) && isScalar(p.key) && !isMerge(p) && String(p.key.value) === key);
  if (own || depth > 8) return own;
  for (const merge of map.items.filter(isMerge)) {
    const sources = isSeq(merge.value) ? merge.value.items : [merge.value];
    for (const source of sources) {
      const target = isAlias(source) ? source.resolve(doc) : source;
      const found = isMap(target) ? pairOf(doc, target, key, depth + 1) : undefined;
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * Collects diagnostics for one source, positioned by path. A finding already made at the same
 * place is not made again: a piece written once and used in several places (an alias, a merge)
 * has each of its problems said once, where it is written.
 */
export class Reporter {
  readonly diagnostics: Diagnostic[] = [];
  private readonly seen = new Set<string>();
  constructor(readonly src: FlowSource) {}

  report(severity: Severity, code: DiagnosticCode, path: SourcePath, message: string, key = false): void {
    const { line, col } = positionOf(this.src, path, key);
    const finding = `${line}:${col}:${severity}:${code}:${message}`;
    if (this.seen.has(finding)) return;
    this.seen.add(finding);
    this.diagnostics.push({ file: this.src.file, line, col, severity, code, message });
  }
  error(code: DiagnosticCode, path: SourcePath, message: string, key = false): void {
    this.report('error', code, path, message, key);
  }
  warn(code: DiagnosticCode, path: SourcePath, message: string, key = false): void {
    this.report('warning', code, path, message, key);
  }
}
