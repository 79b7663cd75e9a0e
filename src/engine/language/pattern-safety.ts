// Finds a flow's regular expressions that can make the browser's backtracking matcher run for
// seconds or hang: a repetition whose body can match the same text in more than one way, so a
// failing match tries every way. Two shapes cause it and both are refused by `vfdl check`:
//
//   - a quantifier inside a repeated group, with nothing in the group that tells the rounds
//     apart: `^(a+)+$`, `(\w+\s?)*`, `(\d+\.?)*` (but not `(\d+\.){3}`, where the dot does);
//   - a repeated alternation whose alternatives can start with the same character: `(a|aa)*`,
//     `(\w|\d)+`, `(a|a?)+`.
//
//   - unbounded quantifiers side by side that can share the same text, three factors in all
//     counting the start positions of an unanchored pattern: `.*.*x`, `\w+\s*\w+x`, `^\d*\d*\d*`.
//
// "Repeated" means two or more times. Two factors cost at most the square of the input, which
// the length caps in limits.ts keep small. The check is a judgement on the pattern's shape,
// made on a small parse of JavaScript's syntax; it errs on the side of refusing, and the message
// says what to change. Two character sets overlap when a sample of characters (ASCII and some
// letters beyond) has one that both match.

type Node =
  | { kind: 'char'; src: string }
  | { kind: 'empty'; start?: true }
  | { kind: 'look'; body: Node }
  | { kind: 'group'; alts: Node[][] }
  | { kind: 'repeat'; body: Node; min: number; max: number; src: string };

/** The parser's view of the text: a cursor over the pattern. */
class Cursor {
  i = 0;
  constructor(readonly s: string) {}
  peek(n = 0): string {
    return this.s[this.i + n] ?? '';
  }
  rest(): string {
    return this.s.slice(this.i);
  }
  done(): boolean {
    return this.i >= this.s.length;
  }
}

const ANY = '[^]';
const SPECIAL = /[\\^$.*+?()[\]{}|/]/;

function parseAlternation(c: Cursor): Node {
  const alts: Node[][] = [parseSequence(c)];
  while (c.peek() === '|') {
    c.i += 1;
    alts.push(parseSequence(c));
  }
  return { kind: 'group', alts };
}

function parseSequence(c: Cursor): Node[] {
  const seq: Node[] = [];
  while (!c.done() && c.peek() !== '|' && c.peek() !== ')') {
    const start = c.i;
    const term = parseTerm(c);
    seq.push(parseQuantifier(c, term, start));
  }
  return seq;
}

function parseQuantifier(c: Cursor, body: Node, start: number): Node {
  let min: number;
  let max: number;
  const ch = c.peek();
  const braces = /^\{(\d+)(,(\d*))?\}/.exec(c.rest());
  if (ch === '*' || ch === '+' || ch === '?') {
    [min, max] = ch === '*' ? [0, Infinity] : ch === '+' ? [1, Infinity] : [0, 1];
    c.i += 1;
  } else if (braces) {
    min = Number(braces[1]);
    max = braces[2] === undefined ? min : braces[3] === '' ? Infinity : Number(braces[3]);
    c.i += braces[0].length;
  } else return body;
  if (c.peek() === '?') c.i += 1; // lazy: the same ways to match, tried in another order
  return parseQuantifier(c, { kind: 'repeat', body, min, max, src: c.s.slice(start, c.i) }, start);
}

function parseTerm(c: Cursor): Node {
  const ch = c.peek();
  if (ch === '(') {
    c.i += 1;
    let look = false;
    if (c.peek() === '?') {
      const head = /^\?(?::|=|!|<=|<!|<[A-Za-z_$][\w$]*>)/.exec(c.rest());
      c.i += head ? head[0].length : 1;
      look = head !== null && /^\?(=|!|<=|<!)$/.test(head[0]);
    }
    const body = parseAlternation(c);
    if (c.peek() === ')') c.i += 1;
    return look ? { kind: 'look', body } : body;
  }
  if (ch === '[') {
    const start = c.i;
    c.i += 1;
    if (c.peek() === '^') c.i += 1;
    while (!c.done() && c.peek() !== ']') c.i += c.peek() === '\\' ? 2 : 1;
    c.i += 1;
    return { kind: 'char', src: c.s.slice(start, c.i) };
  }
  if (ch === '\\') return parseEscape(c);
  c.i += 1;
  if (ch === '^') return { kind: 'empty', start: true };
  if (ch === '$') return { kind: 'empty' };
  if (ch === '.') return { kind: 'char', src: '.' };
  return { kind: 'char', src: SPECIAL.test(ch) ? `\\${ch}` : ch };
}

function parseEscape(c: Cursor): Node {
  const next = c.peek(1);
  const forms: [RegExp, Node | null][] = [
    [/^\\[bB]/, { kind: 'empty' }],
    [/^\\[1-9]\d*/, { kind: 'char', src: ANY }], // a back-reference: whatever its group matched
    [/^\\k<[^>]*>/, { kind: 'char', src: ANY }],
    [/^\\c[A-Za-z]/, null],
    [/^\\x[0-9A-Fa-f]{2}/, null],
    [/^\\u[0-9A-Fa-f]{4}/, null],
  ];
  for (const [re, node] of forms) {
    const m = re.exec(c.rest());
    if (m) {
      c.i += m[0].length;
      return node ?? { kind: 'char', src: m[0] };
    }
  }
  c.i += next === '' ? 1 : 2;
  return { kind: 'char', src: `\\${next}` };
}

// ------------------------------------------------------------------ properties of a parse

function canBeEmpty(n: Node): boolean {
  switch (n.kind) {
    case 'char':
      return false;
    case 'empty':
    case 'look':
      return true;
    case 'group':
      return n.alts.some((alt) => alt.every(canBeEmpty));
    case 'repeat':
      return n.min === 0 || canBeEmpty(n.body);
  }
}

/** Every character set in the node, deep. */
function charsIn(n: Node): string[] {
  switch (n.kind) {
    case 'char':
      return [n.src];
    case 'empty':
      return [];
    case 'look':
      return charsIn(n.body);
    case 'group':
      return n.alts.flat().flatMap(charsIn);
    case 'repeat':
      return charsIn(n.body);
  }
}

/** The character sets a match of the sequence can start with. */
function firstChars(seq: readonly Node[]): string[] {
  const out: string[] = [];
  for (const n of seq) {
    if (n.kind === 'char') out.push(n.src);
    else if (n.kind === 'group') out.push(...n.alts.flatMap(firstChars));
    else if (n.kind === 'repeat') out.push(...firstChars([n.body]));
    if (!canBeEmpty(n)) break;
  }
  return out;
}

/** The character sets every match of the node passes through, outside any optional part. */
function requiredChars(n: Node): string[] {
  switch (n.kind) {
    case 'char':
      return [n.src];
    case 'empty':
    case 'look':
      return [];
    case 'group':
      return n.alts.length === 1 ? n.alts[0]!.flatMap(requiredChars) : [];
    case 'repeat':
      return n.min > 0 ? requiredChars(n.body) : [];
  }
}

/** Quantifiers inside the node that can match a varying number of times (not `?`, not `{3}`). */
function varyingRepeats(n: Node): Extract<Node, { kind: 'repeat' }>[] {
  return repeats(n).filter((r) => r.max > 1 && r.min !== r.max && charsIn(r.body).length > 0);
}

/** The alternations a round of the body starts in or passes through outside other repeats. */
function alternations(n: Node): Node[][][] {
  if (n.kind !== 'group') return [];
  const here = n.alts.length > 1 ? [n.alts] : [];
  return [...here, ...n.alts.flat().flatMap(alternations)];
}

// ------------------------------------------------------------------ overlap of character sets

const SAMPLE = [
  ...Array.from({ length: 128 }, (_, i) => String.fromCharCode(i)),
  ...'éèñüößçøåÅÉÑæœłşğıİ€£¥§°±×÷µ\u00a0\u2028\u2029\u3000中文字あア한ĀЖжαΩ',
];
const members = new Map<string, boolean[]>();

/** Which sample characters the character set matches (kept: the same sets come back often). */
function sampleOf(src: string): boolean[] {
  let m = members.get(src);
  if (!m) {
    let re: RegExp | null;
    try {
      re = new RegExp(`^(?:${src})$`, 'i');
    } catch {
      re = null;
    }
    m = SAMPLE.map((ch) => re === null || re.test(ch));
    members.set(src, m);
  }
  return m;
}

function overlap(a: string, b: string): boolean {
  const [ma, mb] = [sampleOf(a), sampleOf(b)];
  return ma.some((hit, i) => hit && mb[i]);
}

// ------------------------------------------------------------------ the check

/** Every quantifier inside the node, outer ones first. */
function repeats(n: Node): Extract<Node, { kind: 'repeat' }>[] {
  switch (n.kind) {
    case 'char':
    case 'empty':
      return [];
    case 'look':
      return repeats(n.body);
    case 'group':
      return n.alts.flat().flatMap(repeats);
    case 'repeat':
      return [n, ...repeats(n.body)];
  }
}

function problemOf(r: Extract<Node, { kind: 'repeat' }>): string | undefined {
  const inner = varyingRepeats(r.body);
  if (inner.length > 0) {
    const innerChars = inner.flatMap((i) => charsIn(i.body));
    const separated = requiredChars(r.body).some((sep) => innerChars.every((x) => !overlap(sep, x)));
    if (!separated) {
      return `"${r.src}" repeats a group that holds another quantifier ("${inner[0]!.src}"), so one text can be split between the rounds in very many ways; drop one of the two quantifiers, or put something every round must contain and that the inner part cannot match (as in "(\\w+,)*")`;
    }
  }
  for (const alts of alternations(r.body)) {
    for (let i = 0; i < alts.length; i++) {
      for (let j = i + 1; j < alts.length; j++) {
        const [a, b] = [alts[i]!, alts[j]!];
        const empty = a.every(canBeEmpty) || b.every(canBeEmpty);
        if (empty || firstChars(a).some((x) => firstChars(b).some((y) => overlap(x, y)))) {
          return `"${r.src}" repeats alternatives that can match the same text${empty ? ' (one can match nothing)' : ''}, so a long input can be read in very many ways; make the alternatives start differently, or use one character class`;
        }
      }
    }
  }
  return undefined;
}

/** The sequence with its one-alternative groups written out, so `(\w+)\s*(\w+)` is five nodes. */
function flatten(seq: readonly Node[]): Node[] {
  return seq.flatMap((n) => (n.kind === 'group' && n.alts.length === 1 ? flatten(n.alts[0]!) : [n]));
}

/**
 * Unbounded quantifiers side by side that can share the same text (`.*.*x`, `\w+\s*\w+x`):
 * each one more multiplies the ways to split the text by its length, and so does every place
 * the match may start when the pattern is not anchored with `^`. Three such factors make a
 * text of the capped length take seconds. Something required between them that none of them
 * can match ends the run (`(\w+) (\w+)`).
 */
function sideBySideProblem(seq: readonly Node[], atStart: boolean): string | undefined {
  let anchored = false;
  let first = true; // still in the run the match starts with
  let sets: string[] = []; // what the run's unbounded quantifiers match
  let sharing: string[] = [];
  for (const n of flatten(seq)) {
    if (n.kind === 'empty' && n.start && first && sets.length === 0) anchored = true;
    if (n.kind === 'repeat' && n.max === Infinity && charsIn(n.body).length > 0) {
      const starts = firstChars([n.body]);
      if (sharing.length === 0 || sets.some((x) => starts.some((y) => overlap(x, y)))) sharing.push(n.src);
      sets.push(...charsIn(n.body));
      const factors = sharing.length + (first && atStart && !anchored ? 1 : 0);
      if (sharing.length >= 2 && factors >= 3) {
        return `${sharing.map((x) => `"${x}"`).join(' and ')} stand side by side${first && !anchored ? ' in a pattern not anchored with ^' : ''} and can match the same text, so a long input can be split between them in very many ways; put something between them that neither can match, anchor the pattern with ^, or merge them`;
      }
    } else if (!canBeEmpty(n) && sets.length > 0) {
      const required = requiredChars(n).length > 0 ? requiredChars(n) : charsIn(n);
      if (required.some((x) => sets.every((y) => !overlap(x, y)))) {
        sets = [];
        sharing = [];
        first = false;
      }
    }
  }
  return undefined;
}

/** Every sequence in the tree: each alternative of each group, deep. */
function sequences(n: Node): Node[][] {
  switch (n.kind) {
    case 'char':
    case 'empty':
      return [];
    case 'look':
      return sequences(n.body);
    case 'group':
      return [...n.alts, ...n.alts.flat().flatMap(sequences)];
    case 'repeat':
      return sequences(n.body);
  }
}

/**
 * Why the pattern can take seconds on some input, or undefined when it cannot (as far as this
 * check sees). The pattern must already compile.
 */
export function slowPatternProblem(source: string): string | undefined {
  const tree = parseAlternation(new Cursor(source));
  for (const r of repeats(tree)) {
    if (r.max < 2) continue;
    const problem = problemOf(r);
    if (problem) return problem;
  }
  const top = tree.kind === 'group' ? tree.alts : [];
  for (const seq of sequences(tree)) {
    const problem = sideBySideProblem(seq, top.includes(seq));
    if (problem) return problem;
  }
  return undefined;
}
