// Diagnostics for flow files: stable codes, positions, did-you-mean, and the one-line format
// `FILE:LINE:COL: error: MESSAGE [code]` that `vfdl check` prints and the kiosk's operator screen shows.

export type Severity = 'error' | 'warning';

/** Every diagnostic code the checker can give. Codes are stable: tools may match on them. */
export const DIAGNOSTIC_CODES = {
  'yaml-syntax': 'the file is not valid YAML',
  'not-a-flow': 'the document is not a mapping of flow keys',
  'unknown-key': 'a key the language does not know',
  'missing-key': 'a required key is missing',
  'wrong-type': 'a value of the wrong kind (text, number, list, mapping)',
  'bad-value': 'a value outside the allowed set or format',
  'unknown-target': 'a transition, gate or fallback names a state that does not exist',
  'reserved-state': 'a state uses a reserved name',
  'unknown-tool': 'a tool is listed or mapped but defined nowhere',
  'unknown-variable': 'a variable is referred to but never declared or set',
  'ungated-capture': 'a gated variable that nothing in its state can set',
  'bad-pattern': 'a pattern that does not compile, or an on_utterance pattern with too few groups',
  'slow-pattern': 'a pattern whose matching can take seconds on some input (nested or overlapping repetition)',
  'tool-name-collision': 'a generated tool name collides with another tool',
  'unreachable-state': 'a state that cannot be reached from the initial state',
  'no-end': 'no path from the initial state reaches an end',
  'llm-only-exit': 'a state whose only ways out depend on the LLM',
  'not-acted-on': 'a key this kiosk accepts but does not act on',
  'required-never-set': 'a required variable that no path sets',
  'duplicate-key': 'a key given twice in one mapping',
  'too-deep': 'mappings and lists nested deeper than the limit (64 levels)',
  'too-large': 'a file larger than the limit (256 KiB)',
  'tool-from-other-state': 'a state lists a tool that only another state defines',
  'type-mismatch': 'a parameter, default, set or guard value of another type than its variable',
  'duplicate-id': 'a field, option or action id given twice in one list',
  'unknown-language': 'a text given in a language the flow does not offer (languages)',
  'missing-translation': 'a text without its version in one of the flow\'s languages',
  'never-taken': 'a branch, target or rule that can never be taken',
  'may-block': 'a list of guarded branches without an unguarded last one: when none holds the visitor is stuck',
  'no-effect': 'a screen whose taps would do nothing, or store nothing where a spoken answer is stored',
  'validation-gap': 'a form field lets through a value that a tool taking it later refuses',
} as const;

export type DiagnosticCode = keyof typeof DIAGNOSTIC_CODES;

export interface Diagnostic {
  file: string;
  line: number;
  col: number;
  severity: Severity;
  code: DiagnosticCode;
  message: string;
}

/** `FILE:LINE:COL: error: MESSAGE [code]` */
export function formatDiagnostic(d: Diagnostic): string {
  return `${d.file}:${d.line}:${d.col}: ${d.severity}: ${d.message} [${d.code}]`;
}

export function hasErrors(ds: readonly Diagnostic[]): boolean {
  return ds.some((d) => d.severity === 'error');
}

/** Sorts by position, errors before warnings at the same place. */
export function sortDiagnostics(ds: Diagnostic[]): Diagnostic[] {
  return ds.sort(
    (a, b) =>
      a.line - b.line ||
      a.col - b.col ||
      (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1),
  );
}

/** How many letters must be added, dropped or changed to make `a` into `b` (Levenshtein). */
export function editDistance(a: string, b: string): number {
  const prev = new Array<number>(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0]!;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = prev[j]!;
      prev[j] = Math.min(above + 1, prev[j - 1]! + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = above;
    }
  }
  return prev[b.length]!;
}

/**
 * Words authors write for what the language spells otherwise, by meaning, where spelling alone
 * would suggest the wrong word (`le` is one letter from `lt`, but means `lte`). The first of each
 * list that is a candidate where the word was written is suggested.
 */
const MEANINGS: Readonly<Record<string, readonly string[]>> = {
  le: ['lte'], ge: ['gte'], ne: ['neq'], '<': ['lt'], '<=': ['lte'], '>': ['gt'], '>=': ['gte'], '=': ['eq'], '==': ['eq'], '!=': ['neq'],
  equals: ['eq'], equal: ['eq'], is: ['eq'], not: ['neq'], not_equal: ['neq'], not_equals: ['neq'], less_than: ['lt'], greater_than: ['gt'],
  contains: ['matches'], regex: ['matches', 'pattern'], regexp: ['matches', 'pattern'], match: ['matches', 'pattern'], like: ['matches'],
  is_empty: ['empty'], exists: ['not_empty'], is_set: ['not_empty'], one_of: ['in'], none_of: ['not_in'],
  retries: ['max_retries'], retry: ['max_retries'], attempts: ['max_retries'], max_attempts: ['max_retries'], tries: ['max_retries'],
  fallback_state: ['fallback'], on_fail: ['fallback'], next: ['target'], goto: ['target'], to: ['target'],
  condition: ['guard'], conditions: ['guard'], if: ['guard'], when: ['guard'],
  timeout: ['on_timeout', 'seconds'], on_tap: ['on_ui_event'], on_click: ['on_ui_event'], on_event: ['on_ui_event'], on_tool: ['on_tool_call'],
  on_say: ['on_utterance'], on_speech: ['on_utterance'], on_intent: ['on_utterance'], no_match: ['on_no_match'], on_not_understood: ['on_no_match'],
  global_transitions: ['global'], every_state: ['global'], system_prompt: ['base_prompt', 'prompt'],
  kind: ['artifact_type', 'type'], items: ['options'], choices: ['options'], buttons: ['actions'], inputs: ['fields'],
  minlength: ['min_length'], maxlength: ['max_length'], minimum: ['min'], maximum: ['max'],
  error: ['message'], error_message: ['message'], invalid_message: ['message'], hint: ['placeholder'], default_value: ['default'],
};

/** The closest candidate to `word`, if one is close enough to be a likely typo, or means what it means. */
export function closest(word: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestScore = Infinity;
  const w = word.toLowerCase();
  const list = [...candidates];
  const meant = (Object.hasOwn(MEANINGS, w) ? MEANINGS[w]! : []).find((m) => list.includes(m));
  if (meant !== undefined) return meant;
  for (const c of list) {
    const score = editDistance(w, c.toLowerCase());
    if (score < bestScore) {
      best = c;
      bestScore = score;
    }
  }
  if (best === undefined) return undefined;
  const limit = Math.max(2, Math.floor(Math.max(word.length, best.length) / 3));
  return bestScore <= limit ? best : undefined;
}

/** ` (did you mean "x"?)` or the empty string. */
export function didYouMean(word: string, candidates: Iterable<string>): string {
  const c = closest(word, candidates);
  return c === undefined ? '' : ` (did you mean "${c}"?)`;
}
