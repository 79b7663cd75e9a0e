// Where the cursor is in a flow's YAML, as the schema sees it: the path of keys (and list items)
// to the mapping it is in, and whether a key or a value is being written there, with the word
// typed so far. Read from the lines' indentation (block style, as flows are written), and from
// the braces of a one-line `{ key: value, … }`. Works on a text that does not parse yet, as it
// is while being typed.

/** A path into the document: mapping keys, and 0 for "an item of this list". */
export type YamlPath = readonly (string | number)[];

export interface YamlPlace {
  /** `key`: a key of a mapping is being written (or, after a dash, maybe an item of a list of plain values); `value`: a value */
  writing: 'key' | 'value';
  /** for a key, the path to its mapping (or list item); for a value, the path to the value itself */
  path: YamlPath;
  /** for a value: the nearest key it belongs to (the key itself, or the list's) */
  key?: string;
  /** the word typed so far, and where it starts */
  word: string;
  from: number;
}

const indentOf = (line: string) => /^ */.exec(line)![0].length;
const quiet = (line: string) => /^\s*(#.*)?$/.test(line);
/** `key:` (with what follows), or `- key:` (an item that is a mapping), at the start of a line. */
const KEY_LINE = /^( *)(- +)?((?:[^\s#:'"{}[\],-][^:#{}[\],]*?)|"[^"]*"|'[^']*'):(?:\s|$)/;
const DASH_LINE = /^( *)- /;

const keyText = (raw: string) => raw.replace(/^["']|["']$/g, '');

/**
 * The keys of the block mappings (and the list items) above `lineIndex` that hold something
 * written at column `column`, outermost first.
 */
export function blockPath(lines: readonly string[], lineIndex: number, column: number): (string | number)[] {
  const path: (string | number)[] = [];
  let limit = column;
  for (let i = lineIndex - 1; i >= 0 && limit > 0; i--) {
    const line = lines[i]!;
    if (quiet(line)) continue;
    const indent = indentOf(line);
    if (indent >= limit) continue;
    const key = KEY_LINE.exec(line);
    const dash = DASH_LINE.exec(line);
    if (key?.[2]) {
      // `- key: …`: its item's mapping starts after the dash.
      const inner = indent + key[2].length;
      if (limit > inner) path.unshift(0, keyText(key[3]!));
      else path.unshift(0);
      limit = indent;
      continue;
    }
    if (dash) {
      path.unshift(0);
      limit = indent;
      continue;
    }
    if (key) {
      path.unshift(keyText(key[3]!));
      limit = indent;
    }
  }
  return path;
}

/** The braces and brackets still open before the cursor on its line, each with the key before it, and the text since the last of them or comma. */
function openFlows(rest: string): { open: { kind: '{' | '['; key?: string }[]; segment: string } {
  const open: { kind: '{' | '['; key?: string }[] = [];
  let segment = 0;
  let quote: string | null = null;
  for (let i = 0; i < rest.length; i++) {
    const c = rest[i]!;
    if (quote) {
      if (c === quote) quote = null;
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === '{' || c === '[') {
      const key = /([\w-]+|"[^"]*"|'[^']*')\s*:\s*$/.exec(rest.slice(segment, i))?.[1];
      open.push({ kind: c, ...(key ? { key: keyText(key) } : {}) });
      segment = i + 1;
    } else if (c === '}' || c === ']') {
      open.pop();
      segment = i + 1;
    } else if (c === ',') segment = i + 1;
  }
  return { open, segment: rest.slice(segment) };
}

/** Where the cursor at `pos` in `text` is: a key or a value being written, under which path. */
export function placeAt(text: string, pos: number): YamlPlace {
  const lineStart = text.lastIndexOf('\n', pos - 1) + 1;
  const before = text.slice(lineStart, pos);
  const lines = text.slice(0, lineStart).split('\n');
  const word = /[\w.-]*$/.exec(before)![0];
  const from = pos - word.length;
  const head = /^( *)(- +)?/.exec(before)!;
  const column = head[1]!.length + (head[2]?.length ?? 0);
  const outer = blockPath(lines, lines.length - 1, head[1]!.length);
  const base = head[2] ? [...outer, 0] : outer;
  const rest = before.slice(column);
  const flows = openFlows(rest);
  if (flows.open.length > 0) {
    const path = [...base, ...flows.open.flatMap((o) => [...(o.key !== undefined ? [o.key] : []), ...(o.kind === '[' ? [0] : [])])];
    const pair = /^\s*([\w-]+|"[^"]*"|'[^']*')\s*:\s*[\w.-]*$/.exec(flows.segment);
    if (pair) return { path: [...path, keyText(pair[1]!)], writing: 'value', key: keyText(pair[1]!), word, from };
    const inner = flows.open.at(-1)!;
    if (inner.kind === '{' && /^\s*[\w.-]*$/.test(flows.segment)) return { path, writing: 'key', word, from };
    return { path, writing: 'value', ...(inner.key !== undefined ? { key: inner.key } : {}), word, from };
  }
  const value = /^([\w-]+|"[^"]*"|'[^']*')\s*:\s+[\w.-]*$/.exec(rest);
  if (value) return { path: [...base, keyText(value[1]!)], writing: 'value', key: keyText(value[1]!), word, from };
  // A bare word: a key of the mapping here, or (after a dash, in a list of plain values) an item.
  if (/^[\w.-]*$/.test(rest)) return { path: base, writing: 'key', word, from };
  const key = typeof outer.at(-1) === 'string' ? (outer.at(-1) as string) : undefined;
  return { path: base, writing: 'value', ...(key ? { key } : {}), word, from };
}
