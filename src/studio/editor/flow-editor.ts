// The studio's code editor: CodeMirror 6 with YAML, the checker's diagnostics under the text (the
// same line and column as `vfdl check`, pushed in as the worker finds them), completion and hover
// help from the flow schema (schema-help.ts) and from the flow's own names (its states,
// variables and tools where a value names one), and a way to show a state's text when the
// diagram asks.

import { autocompletion, closeBrackets, closeBracketsKeymap, completionKeymap, type Completion, type CompletionContext, type CompletionResult } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { yaml } from '@codemirror/lang-yaml';
import { bracketMatching, defaultHighlightStyle, foldGutter, indentOnInput, syntaxHighlighting } from '@codemirror/language';
import { lintGutter, lintKeymap, setDiagnostics, type Diagnostic as EditorDiagnostic } from '@codemirror/lint';
import { highlightSelectionMatches, searchKeymap } from '@codemirror/search';
import { EditorSelection, EditorState, type Extension } from '@codemirror/state';
import { EditorView, drawSelection, highlightActiveLine, highlightActiveLineGutter, hoverTooltip, keymap, lineNumbers } from '@codemirror/view';
import type { Diagnostic } from '../../engine/language/diagnostics.ts';
import schema from '../../../schema/vfdl.schema.json';
import { SchemaHelp, type SchemaNode } from './schema-help.ts';
import { placeAt } from './yaml-place.ts';

/** The flow's own names, offered where a value names one of them. */
export interface FlowNames {
  states: readonly string[];
  variables: readonly string[];
  tools: readonly string[];
}

export interface FlowEditorOptions {
  text: string;
  /** the editor's name for screen readers */
  label: string;
  /** the text changed (typed, pasted, undone) */
  changed: (text: string) => void;
  /** the names of the flow as last checked */
  names: () => FlowNames;
}

const help = new SchemaHelp(schema as unknown as SchemaNode);

/** Keys whose value names a variable, or a tool. */
const NAMES_VARIABLE = new Set(['variable', 'variables', 'capture_to', 'age_of', 'clear']);
const NAMES_TOOL = new Set(['tools', 'call', 'tool']);

/** Completion from the schema where the cursor is: the keys a mapping may have, the values a key may take, the flow's names. */
function complete(names: () => FlowNames) {
  return (context: CompletionContext): CompletionResult | null => {
    const place = placeAt(context.state.doc.toString(), context.pos);
    if (!context.explicit && place.word === '') return null;
    const options: Completion[] = [];
    if (place.writing === 'key' && help.takesKeys(place.path)) {
      for (const k of help.keys(place.path)) options.push({ label: k.label, type: 'property', apply: `${k.label}: `, ...(k.description ? { info: k.description } : {}), boost: k.required ? 1 : 0 });
    } else {
      for (const v of help.values(place.path)) options.push({ label: v.label, type: 'enum' });
      const flow = names();
      if (help.namesState(place.path)) for (const s of [...flow.states, '__end__']) options.push({ label: s, type: 'class', detail: 'state' });
      if (place.key && NAMES_VARIABLE.has(place.key)) for (const v of flow.variables) options.push({ label: v, type: 'variable', detail: 'variable' });
      if (place.key && NAMES_TOOL.has(place.key)) for (const t of flow.tools) options.push({ label: t, type: 'function', detail: 'tool' });
    }
    return options.length ? { from: place.from, options, validFor: /^[\w.-]*$/ } : null;
  };
}

/** Hover help on a key: what the schema says it is for. */
const keyHelp = hoverTooltip((view, pos) => {
  const line = view.state.doc.lineAt(pos);
  const text = line.text;
  let start = pos - line.from;
  let end = start;
  while (start > 0 && /[\w-]/.test(text[start - 1]!)) start--;
  while (end < text.length && /[\w-]/.test(text[end]!)) end++;
  if (start === end || !/^\s*:/.test(text.slice(end))) return null;
  const key = text.slice(start, end);
  const place = placeAt(view.state.doc.toString(), line.from + start);
  const description = help.description([...place.path, key]);
  if (!description) return null;
  return {
    pos: line.from + start,
    end: line.from + end,
    above: true,
    create: () => {
      const dom = document.createElement('div');
      dom.className = 'schema-help';
      const name = document.createElement('strong');
      name.textContent = key;
      dom.append(name, `: ${description}`);
      return { dom };
    },
  };
});

/** A checker's diagnostic as the editor marks it: from its line and column to the end of the word there. */
export function editorDiagnostic(state: EditorState, d: Diagnostic): EditorDiagnostic {
  const line = state.doc.line(Math.min(Math.max(d.line, 1), state.doc.lines));
  const from = Math.min(line.from + Math.max(d.col - 1, 0), line.to);
  const word = /^[^\s,:{}[\]]*/.exec(line.text.slice(from - line.from))![0];
  const to = Math.max(from + word.length, Math.min(from + 1, line.to));
  return { from, to, severity: d.severity, message: `${d.message} [${d.code}]`, source: 'vfdl check' };
}

/**
 * The editor's own look. CodeMirror writes its styles into the page, which the kiosk's
 * Content-Security-Policy forbids as inline styles; inside a shadow root it adds them as a
 * constructed style sheet instead, which the policy allows. So the editor lives in one, and its
 * look (the page's style sheet does not reach in) is written here.
 */
const look = EditorView.theme({
  '&': { height: '100%', fontSize: '14px', backgroundColor: '#ffffff' },
  '.cm-scroller': { fontFamily: "ui-monospace, 'Cascadia Code', 'Source Code Pro', Menlo, monospace", lineHeight: '1.5' },
  '.cm-gutters': { backgroundColor: '#f6f8fb', color: '#3d5168', borderRight: '1px solid #c5cfdb' },
  '.cm-activeLine': { backgroundColor: '#eef3f9' },
  '.cm-activeLineGutter': { backgroundColor: '#e3eaf3' },
  '&.cm-focused': { outline: '3px solid #ffb000' },
  '.schema-help': { maxWidth: '28rem', padding: '0.3rem 0.5rem', fontFamily: 'system-ui, sans-serif', fontSize: '13px' },
  '.cm-tooltip-lint, .cm-diagnostic': { fontFamily: 'system-ui, sans-serif', fontSize: '13px' },
});

export class FlowEditor {
  readonly view: EditorView;
  private readonly extensions: Extension[];

  /** `host`: the element the editor is drawn in, inside a shadow root of its own (see `look`). */
  constructor(host: HTMLElement, options: FlowEditorOptions) {
    const root = host.shadowRoot ?? host.attachShadow({ mode: 'open' });
    const parent = document.createElement('div');
    parent.className = 'editor-root';
    root.replaceChildren(parent);
    const fill = new CSSStyleSheet();
    fill.replaceSync(':host { display: block; } .editor-root { height: 100%; }');
    root.adoptedStyleSheets = [fill];
    this.extensions = [
      look,
      lineNumbers(),
      highlightActiveLineGutter(),
      foldGutter(),
      lintGutter(),
      history(),
      drawSelection(),
      indentOnInput(),
      bracketMatching(),
      closeBrackets(),
      highlightActiveLine(),
      highlightSelectionMatches(),
      syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
      yaml(),
      EditorState.tabSize.of(2),
      autocompletion({ override: [complete(options.names)] }),
      keyHelp,
      keymap.of([...closeBracketsKeymap, ...defaultKeymap, ...searchKeymap, ...historyKeymap, ...completionKeymap, ...lintKeymap, indentWithTab]),
      // tabindex: an editable area is in the tab order anyway; said, so that checkers see its scroller can be reached.
      EditorView.contentAttributes.of({ 'aria-label': options.label, tabindex: '0' }),
      EditorView.updateListener.of((update) => {
        if (update.docChanged) options.changed(update.state.doc.toString());
      }),
    ];
    this.view = new EditorView({ parent, root, state: EditorState.create({ doc: options.text, extensions: this.extensions }) });
  }

  get text(): string {
    return this.view.state.doc.toString();
  }

  /** Puts another file's text in (a new history: undo does not go back into the file before). */
  replace(text: string): void {
    this.view.setState(EditorState.create({ doc: text, extensions: this.extensions }));
  }

  /** Shows the checker's diagnostics under the text they are about. */
  show(diagnostics: readonly Diagnostic[]): void {
    const state = this.view.state;
    this.view.dispatch(setDiagnostics(state, diagnostics.map((d) => editorDiagnostic(state, d))));
  }

  /** Selects the text from `from` to `to` and scrolls it to the top of the editor. */
  reveal(from: number, to: number, focus = true): void {
    const end = Math.min(to, this.view.state.doc.length);
    this.view.dispatch({ selection: EditorSelection.range(Math.min(from, end), end), effects: EditorView.scrollIntoView(from, { y: 'start', yMargin: 24 }) });
    if (focus) this.view.focus();
  }

  /** Puts the cursor at a line and column (from 1), as a diagnostic names them. */
  goTo(line: number, col: number): void {
    const l = this.view.state.doc.line(Math.min(Math.max(line, 1), this.view.state.doc.lines));
    const at = Math.min(l.from + Math.max(col - 1, 0), l.to);
    this.view.dispatch({ selection: EditorSelection.cursor(at), effects: EditorView.scrollIntoView(at, { y: 'center' }) });
    this.view.focus();
  }

  destroy(): void {
    this.view.destroy();
  }
}
