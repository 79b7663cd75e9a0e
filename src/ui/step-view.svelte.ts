// What the visitor sees of the flow's current step, kept from the engine's messages: the step
// itself, each field's value and whether it waits for a yes, the notice beside a field, and the
// action waiting on its card or being performed. Labels come from the flow, in the visitor's words.

import { words, type Said, type Words } from './i18n/words.ts';
import type { LoadedFlow } from '../engine/language/loaded-flow.ts';
import { resolveTool, type Field, type FieldProblem } from '../engine/language/flow.ts';
import { variableLabel } from '../engine/runtime/shown-values.ts';
import { displayValue } from '../engine/language/interpolate.ts';
import { copy, dict, own } from '../engine/language/records.ts';
import { isRealDate } from '../engine/language/values.ts';
import type { EngineMessage, FlowStateMessage, TransitionBlockedMessage } from '../engine/runtime/messages.ts';
import type { NearLimit } from './time-warnings.ts';
import { faceOf } from './step-face.ts';

export type FieldStatus = 'empty' | 'pending' | 'confirmed' | 'set';

export interface FieldState {
  value: string;
  status: FieldStatus;
  /** the visitor chose "Change": the field is open for typing */
  editing: boolean;
}

export interface Notice {
  /** the variable the notice sits beside, if any */
  near: string | null;
  text: Said;
  /** by variable, what is wrong with its value, said beside its field (a rule of the field it broke) */
  fields?: Record<string, Said>;
}

/** A value of the pending action the visitor may change on its card ("Change"). */
export interface ActionField {
  name: string;
  label: string;
  input: 'text' | 'number' | 'date' | 'select';
  options: string[];
  value: string;
}

/** An action waiting for the visitor's yes, as its card shows it. */
export interface PendingActionView {
  id: string;
  summary: string;
  fields: ActionField[];
}

/** What a message changed that the kiosk around the step must act on. */
export interface StepChange {
  /** a new screen (a step, a card, the card giving way): its buttons wait a moment */
  screenChanged: boolean;
  /** an action did not go through */
  actionFailed: boolean;
}

export class StepView {
  screen = $state<FlowStateMessage | null>(null);
  /** by variable: a record without a prototype, replaced whole on each change (a Svelte proxy
   *  would take a field named like an Object member, `constructor`, for one it cannot write) */
  fields = $state.raw<Record<string, FieldState>>(dict());
  notice = $state<Notice | null>(null);
  pendingAction = $state<PendingActionView | null>(null);
  /** a confirmed action is being performed: what it does, in the visitor's words */
  actionRunning = $state<string | null>(null);
  /** an action of the step that needed no yes (a look-up) is being performed: its id */
  lookingUp = $state<string | null>(null);
  /** what the visitor sees of the step (see faceOf): a new message that leaves it alike holds no tap */
  private face = '';

  constructor(private readonly flow: () => LoadedFlow | null) {}

  /** Takes in one of the engine's messages. */
  apply(m: EngineMessage): StepChange {
    const change: StepChange = { screenChanged: false, actionFailed: false };
    switch (m.type) {
      case 'flow_state': {
        // The step shown again as it was (its own timeout, a language kept): nothing under the
        // finger changed, so no tap is held (issue 31 point 13).
        const face = faceOf(m);
        change.screenChanged = face !== this.face;
        this.face = face;
        this.lookingUp = null;
        this.show(m);
        break;
      }
      case 'flow_variable': {
        const f = this.fields[m.name];
        if (!f) break;
        const status: FieldStatus = m.status === 'cleared' ? 'empty' : m.status;
        const editing = f.editing && status !== 'confirmed';
        this.setField(m.name, { value: m.status === 'cleared' ? '' : displayValue(m.value), status, editing });
        if (status !== 'pending') this.settled(m.name);
        break;
      }
      case 'transition_blocked':
        this.notice = this.blockedNotice(m);
        break;
      case 'action_pending':
        change.screenChanged = true;
        this.pendingAction = { id: m.action_id, summary: m.summary, fields: this.actionFields(m.tool, m.args) };
        break;
      case 'action_run':
        // A look-up tapped (or called) runs: the step's buttons wait for its answer, so a
        // double tap sends one (issue 30 point 2).
        if (this.pendingAction?.id !== m.action_id) this.lookingUp = m.action_id;
        if (this.pendingAction?.id === m.action_id) {
          // The card gives way: its buttons, and those that move up under a finger, wait a moment.
          change.screenChanged = true;
          this.actionRunning = this.pendingAction.summary;
          this.pendingAction = null;
        }
        break;
      case 'action_result':
        if (this.pendingAction?.id === m.action_id) this.pendingAction = null;
        if (this.lookingUp === m.action_id) this.lookingUp = null;
        if (m.status === 'done' || m.status === 'failed') this.actionRunning = null;
        // A failure the flow has its own way on for (a 404 "no appointment") is said by its next step.
        change.actionFailed = m.status === 'failed' && !m.handled;
        break;
      default:
        break;
    }
    return change;
  }

  /** A new step: its fields as the engine has them, the notice of the step before gone. */
  private show(m: FlowStateMessage): void {
    this.screen = m;
    this.notice = null;
    const fields = dict<FieldState>();
    for (const f of m.artifact?.fields ?? []) {
      const v = own(m.values, f.id);
      const gate = own(m.gate, f.id);
      fields[f.id] = {
        value: v === undefined ? '' : displayValue(v),
        status: gate ?? (v === undefined ? 'empty' : 'set'),
        editing: false,
      };
    }
    this.fields = fields;
  }

  /** A field's value was settled by hand or heard again: what the notice said of it goes, the rest stays. */
  private settled(variable: string): void {
    const n = this.notice;
    if (!n?.fields || own(n.fields, variable) === undefined) {
      if (n?.near === variable) this.notice = null;
      return;
    }
    const rest = dict(Object.entries(n.fields).filter(([v]) => v !== variable));
    const next = Object.keys(rest)[0];
    this.notice = next === undefined ? null : { near: next, text: rest[next]!, fields: rest };
  }

  /** One field's new state, in a new record so the screen sees the change. */
  setField(variable: string, state: FieldState): void {
    const fields = copy(this.fields);
    fields[variable] = state;
    this.fields = fields;
  }

  /** What was typed and not yet sent (kept before a reload), where each field still stands as it did. */
  restoreTyped(kept: Readonly<Record<string, FieldState>>): void {
    const fields = copy(this.fields);
    for (const [id, f] of Object.entries(kept)) if (fields[id]?.status === f.status) fields[id] = { ...f };
    this.fields = fields;
  }

  /** The form's values waiting for the visitor's yes (not being changed), in the form's order. */
  get waitingFields(): string[] {
    return (this.screen?.artifact?.fields ?? []).filter((f) => this.fields[f.id]?.status === 'pending' && !this.fields[f.id]?.editing).map((f) => f.id);
  }

  /** A value of the visitor's is in the form, or an action of theirs waits. */
  get hasEntries(): boolean {
    return Object.values(this.fields).some((f) => f.value !== '') || this.pendingAction !== null;
  }

  /** An action of the step is being performed (confirmed, or a look-up): its buttons wait. */
  get busy(): boolean {
    return this.actionRunning !== null || this.lookingUp !== null;
  }

  clear(): void {
    this.face = '';
    this.lookingUp = null;
    this.screen = null;
    this.fields = dict();
    this.notice = null;
    this.pendingAction = null;
    this.actionRunning = null;
  }

  /** A variable in the visitor's words (shown-values.ts, variableLabel): the flow's label for it, or its field's. */
  fieldLabel(variable: string): string {
    const loaded = this.flow();
    if (!loaded) return variable.replace(/_/g, ' ');
    return variableLabel(loaded.flow, variable);
  }

  /** The step on screen asks the visitor nothing: no field, no option, no value waiting for a yes (a card). */
  get asksNothing(): boolean {
    const artifact = this.screen?.artifact;
    return artifact !== null && artifact !== undefined && artifact.fields.length === 0 && artifact.options.length === 0 && this.screen?.gate === null;
  }

  /** A near time limit of the flow (time-warnings.ts), in the kiosk's words: what it does and in how many seconds. */
  limitWords(limit: NearLimit): Words {
    const { seconds } = limit;
    switch (limit.kind) {
      case 'step':
        // A step that asks nothing (a card) has no answer to wait for: it just closes (issue 31).
        return words(this.asksNothing ? 'time.screenCloses' : 'time.stepCloses', { seconds });
      case 'visit':
        return words('time.visitEnds', { seconds });
      case 'values': {
        const fields = listed(limit.variables.map((v) => this.fieldNoun(v)), this.screen?.language ?? 'en');
        return words('time.valuesClear', { seconds, count: limit.variables.length, fields });
      }
      case 'action':
        return words('time.actionCancelled', { seconds });
    }
  }

  /**
   * A variable named inside a sentence ("Please check your date of birth"): fieldLabel, first
   * word in lower case (not in German, whose nouns keep their capital).
   */
  private fieldNoun(variable: string): string {
    if (this.screen?.language.toLowerCase().startsWith('de')) return this.fieldLabel(variable);
    return this.fieldLabel(variable).replace(/^\p{Lu}(?=\p{Ll}|\s|$)/u, (c) => c.toLowerCase());
  }

  /** The values of a pending action the visitor may change, from its tool's parameters. */
  private actionFields(tool: string, args: Readonly<Record<string, unknown>>): ActionField[] {
    const loaded = this.flow();
    const state = loaded && this.screen ? own(loaded.flow.states, this.screen.state) : undefined;
    const def = state && loaded ? resolveTool(loaded.flow, state, tool) : undefined;
    return (def?.parameters ?? []).map((p) => {
      const words = p.name.replace(/_/g, ' ').trim();
      return {
        name: p.name,
        label: words.charAt(0).toUpperCase() + words.slice(1),
        input: p.enum ? 'select' : p.type === 'date' ? 'date' : p.type === 'number' || p.type === 'integer' ? 'number' : 'text',
        options: (p.enum ?? []).map((o) => displayValue(o)),
        value: displayValue(own(args, p.name)),
      };
    });
  }

  private blockedNotice(m: TransitionBlockedMessage): Notice {
    const names = Object.keys(m.variables);
    const fields = listed(names.map((v) => this.fieldNoun(v)), this.screen?.language ?? 'en');
    const near = names.find((v) => this.fields[v] !== undefined) ?? null;
    switch (m.reason) {
      case 'pending_confirmation':
        return { near, text: words('blocked.pending', { fields }) };
      case 'not_captured': {
        // A box to tick (a consent) is asked for by its own words, in the visit's language.
        const boxes = (this.screen?.artifact?.fields ?? []).filter((f) => f.type === 'checkbox' && own(m.variables, f.id) !== undefined);
        if (boxes.length > 0 && boxes.length === names.length) {
          return { near: boxes[0]!.id, text: words('blocked.tick', { fields: listed(boxes.map((f) => f.label), this.screen?.language ?? 'en') }) };
        }
        return { near, text: words('blocked.missing', { fields }) };
      }
      case 'invalid_input': {
        // Each value that broke a rule of its field is told so beside it, in the flow's words or the kiosk's.
        const broken = Object.entries(m.problems ?? {});
        if (broken.length === 0) return { near, text: words('blocked.invalid', { fields }) };
        const said = dict(broken.map(([v, p]) => [v, problemWords(p)]));
        const first = (this.screen?.artifact?.fields ?? []).find((f) => own(said, f.id) !== undefined)?.id ?? broken[0]![0];
        return { near: first, text: said[first]!, fields: said };
      }
      case 'guard_failed':
        return { near: null, text: words('blocked.guard') };
    }
  }
}

/** What is wrong with a value, for the visitor: the field's own message, else the kiosk's words for the rule. */
function problemWords(p: FieldProblem): Said {
  if (p.message !== undefined) return p.message;
  const shown = p.shown ?? String(p.limit);
  const isDate = typeof p.limit === 'string' && isRealDate(p.limit);
  switch (p.rule) {
    case 'pattern':
      return words('field.problemPattern');
    case 'min_length':
      return words('field.problemMinLength', { count: Number(p.limit) });
    case 'max_length':
      return words('field.problemMaxLength', { count: Number(p.limit) });
    case 'min':
      return isDate ? words('field.problemEarliest', { date: shown }) : words('field.problemMin', { limit: shown });
    case 'max':
      return isDate ? words('field.problemLatest', { date: shown }) : words('field.problemMax', { limit: shown });
  }
}

/** "name and date of birth", in the visit's language ("Name und Geburtsdatum"). */
function listed(labels: string[], language: string): string {
  try {
    return new Intl.ListFormat(language, { type: 'conjunction' }).format(labels);
  } catch {
    return labels.join(', ');
  }
}
