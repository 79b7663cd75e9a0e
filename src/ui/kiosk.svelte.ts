// The kiosk as the screen sees it: which screen is up, the live form, captions, notices, and the
// visitor's actions, over one FlowEngine and its Conversation per visitor, with its voice
// (kiosk-voice.svelte.ts). Wiping (end of visit, walk-away, "Start over") drops every trace of the
// visitor from memory and storage, and closes the microphone. The visit in progress is kept on
// the device at every step (src/pwa/visit-store.ts), so a reload or a crash comes back to it.

import { loadFlowFor, type FlowLoad } from '../adapters/flow-files.ts';
import { ServerActions } from '../adapters/kiosk-server/server-actions.ts';
import { ACTION_FAILED_SENTENCE } from '../engine/runtime/action-effects.ts';
import { OfflineAgent } from '../adapters/offline-agent/offline-agent.ts';
import type { Diagnostic } from '../engine/language/diagnostics.ts';
import { FlowEngine } from '../engine/runtime/engine.ts';
import { ERROR, resolveTool, type Field } from '../engine/language/flow.ts';
import type { LoadedFlow } from '../engine/language/load-flow.ts';
import { displayValue } from '../engine/language/interpolate.ts';
import { copy, dict, own } from '../engine/language/records.ts';
import { shownValues } from '../engine/runtime/shown-values.ts';
import type { EngineMessage, FlowStateMessage, TransitionBlockedMessage, UiEventInput } from '../engine/runtime/messages.ts';
import { tick } from 'svelte';
import { systemClock, type Clock } from '../ports/clock.ts';
import type { ActionRunner, OutcomeSink } from '../ports/action-runner.ts';
import type { LanguageModel } from '../ports/language-model.ts';
import { browserTimers, type Timers } from '../ports/timers.ts';
import { Conversation } from '../voice/conversation.ts';
import { sweepBrowserStores } from '../pwa/privacy-sweep.ts';
import type { KeptVisit, VisitStore } from '../pwa/visit-store.ts';
import { expectedAnswer, turnTakingFor } from '../voice/listening.ts';
import { KioskActions } from './kiosk-actions.ts';
import { KioskVoice, browserMark, type MarkFn, type VoiceParts } from './kiosk-voice.svelte.ts';
import type { KioskSettings } from './kiosk-settings.ts';
import { clearVisitorStorage } from './device-settings.ts';

export { settingsFrom, type KioskSettings } from './kiosk-settings.ts';

/** How long a new screen's buttons wait before they act: longer than the gap of a double tap. */
const SETTLE_MS = 450;

export type Phase = 'loading' | 'invalid' | 'idle' | 'running' | 'ended';

export type FieldStatus = 'empty' | 'pending' | 'confirmed' | 'set';

export interface FieldState {
  value: string;
  status: FieldStatus;
  /** the visitor chose "Change": the field is open for typing */
  editing: boolean;
}

export interface Caption {
  id: string;
  who: 'visitor' | 'agent';
  text: string;
  final: boolean;
}

export interface Notice {
  /** the variable the notice sits beside, if any */
  near: string | null;
  text: string;
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

/** The flow's title for people: a flow without one has its id, shown in words ("booking_wizard" → "Booking wizard"). */
export function shownTitle(title: string, id: string): string {
  if (title !== id) return title;
  const words = id.replace(/[-_]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export class Kiosk {
  phase = $state<Phase>('loading');
  source = $state('');
  diagnostics = $state<Diagnostic[]>([]);
  title = $state('');
  screen = $state<FlowStateMessage | null>(null);
  /** by variable: a record without a prototype, replaced whole on each change (a Svelte proxy
   *  would take a field named like an Object member, `constructor`, for one it cannot write) */
  fields = $state.raw<Record<string, FieldState>>(dict());
  notice = $state<Notice | null>(null);
  captions = $state<Caption[]>([]);
  busy = $state(false);
  pendingAction = $state<PendingActionView | null>(null);
  /** a confirmed action is being performed: what it does, in the visitor's words */
  actionRunning = $state<string | null>(null);
  assistantNote = $state<string | null>(null);
  stillThere = $state(false);
  endValues = $state<Record<string, unknown> | null>(null);
  /** a screen has just changed: its buttons wait a moment, so a double tap cannot act on it */
  settling = $state(false);
  /** seconds until the end screen clears itself (kiosk mode), counting down */
  endsIn = $state<number | null>(null);
  /** "Start over" was tapped with answers entered: the kiosk asks first */
  askingStartOver = $state(false);
  /** the flow says it needs a language model (`settings.llm_required`) */
  private llmRequired = $state(false);
  readonly voice: KioskVoice;

  private loaded: LoadedFlow | null = null;
  private engine: FlowEngine | null = null;
  private conversation: Conversation | null = null;
  private actions: KioskActions | null = null;
  private cancelEnd: (() => void) | null = null;
  private cancelIdle: (() => void) | null = null;
  private cancelSettle: (() => void) | null = null;
  private captionSeq = 0;
  /** a spoken turn was handed on and its effect has not reached the screen yet (vk:screen) */
  private awaitingScreen = false;
  /** the engine's messages being handled come from a tap */
  private tapping = false;
  /** the visit is kept for a reload at every change (from its first step until it ends or is wiped) */
  private keeping = false;
  /** clock time of the visitor's last sign of activity */
  private lastActivity = 0;
  /** a tap made before this time (ms, the clock of events' timeStamp) was meant for the screen before */
  private heldUntil = 0;

  constructor(
    readonly settings: KioskSettings,
    private readonly makeModel: () => LanguageModel = () => new OfflineAgent(),
    private readonly clock: Clock = systemClock,
    private readonly timers: Timers = browserTimers,
    /** the voice of one visit; null: touch and typing only */
    private readonly voiceParts: (language: string) => VoiceParts | null = () => null,
    /** true when a language model is configured */
    private readonly hasModel: () => boolean = () => false,
    private readonly mark: MarkFn = browserMark,
    /** where the visit in progress is kept for a reload; null: nowhere */
    private readonly visits: VisitStore | null = null,
    /** who performs the flow's actions and counts their outcomes: the kiosk's server */
    private readonly actionRunner: ActionRunner & OutcomeSink = new ServerActions(),
  ) {
    this.voice = new KioskVoice(mark);
  }

  /** Loads the flow named in the page's query string. */
  async load(search: string): Promise<void> {
    const result: FlowLoad = await loadFlowFor(search);
    this.source = result.source;
    this.diagnostics = result.diagnostics;
    if (!result.loaded) {
      this.phase = 'invalid';
      return;
    }
    this.loaded = result.loaded;
    this.title = shownTitle(result.loaded.flow.title, result.loaded.flow.id);
    this.llmRequired = result.loaded.flow.settings.llmRequired;
    this.phase = this.resume(result.loaded, result.source) ? 'running' : 'idle';
  }

  /**
   * Takes up the visit kept before a reload or a crash, unless it is for another flow (or another
   * version of this one), or the visitor has been quiet longer than the kiosk waits before it
   * wipes (idle time and the grace of "Are you still there?"): then the copy is deleted and the
   * kiosk starts on its idle screen. Nothing is confirmed, entered or run anew.
   */
  private resume(loaded: LoadedFlow, source: string): boolean {
    const kept = this.visits?.load() ?? null;
    this.visits?.clear();
    if (!kept || kept.source !== source) return false;
    const now = this.clock.now();
    const quiet = now - kept.lastActivity;
    if (quiet < 0 || quiet >= (this.settings.idleSeconds + this.settings.idleGraceSeconds) * 1000) return false;
    const restored = FlowEngine.restore(loaded, this.clock, kept.engine, { awayMs: Math.max(0, now - kept.savedAt) });
    if ('problem' in restored) {
      console.warn(`kiosk: the visit before the reload is not taken up (${restored.problem}); starting afresh`);
      return false;
    }
    const conversation = this.begin(restored.engine, kept.actionNonce);
    // An action sent before the reload is never sent again: the server is asked how it ended.
    for (const run of kept.engine.session.running) {
      this.actions?.recover({ actionId: run.id, serverId: this.actions.serverId(run.id), tool: run.tool });
    }
    this.phase = 'running';
    this.captions = kept.captions;
    this.captionSeq = kept.captionSeq;
    conversation.resume(restored.messages, kept.conversation);
    // What was typed and not yet sent, where the field still stands as it did.
    const fields = copy(this.fields);
    for (const [id, f] of Object.entries(kept.fields)) if (fields[id]?.status === f.status) fields[id] = { ...f };
    this.fields = fields;
    this.lastActivity = kept.lastActivity;
    this.armIdle(quiet);
    this.keeping = true;
    this.keep();
    this.beginVoice();
    return true;
  }

  /** Keeps the visit as it stands now, for a reload or a crash. */
  private keep(): void {
    if (!this.keeping || !this.visits || !this.engine || !this.conversation || this.phase !== 'running') return;
    try {
      this.visits.save(this.keptVisit(this.engine, this.conversation));
    } catch (error) {
      // Keeping is a safety net: the visit goes on without it.
      console.warn(`kiosk: could not keep the visit for a reload (${(error as Error).message})`);
    }
  }

  private keptVisit(engine: FlowEngine, conversation: Conversation): KeptVisit {
    return {
      format: 1,
      source: this.source,
      savedAt: this.clock.now(),
      lastActivity: this.lastActivity,
      engine: engine.snapshot(),
      conversation: conversation.context(),
      captions: this.captions.map((c) => ({ ...c })),
      captionSeq: this.captionSeq,
      fields: copy(this.fields),
      ...(this.actions ? { actionNonce: this.actions.nonce } : {}),
    };
  }

  /** What staff must know about this kiosk's setup, or null. */
  get operatorNote(): string | null {
    return this.llmRequired && !this.hasModel()
      ? "For staff: this flow needs a language model and none is configured (set LLM_BASE_URL and LLM_MODEL on the kiosk's server). The built-in assistant stands in until then."
      : null;
  }

  get flowMode(): 'kiosk' | 'assistant' {
    return this.loaded?.flow.mode ?? 'kiosk';
  }

  /**
   * A variable in the visitor's words, for the end screen: the label of the field that asks for it
   * without a leading "Your" ("Date of birth"), or the variable's own words when that label is a
   * question ("What's your first name?" → "First name") or no field asks for it.
   */
  fieldLabel(variable: string): string {
    let label: string | undefined;
    for (const s of Object.values(this.loaded?.flow.states ?? {})) {
      label ??= s.ui?.fields.find((x: Field) => x.id === variable)?.label.trim();
    }
    const words = label === undefined || label.endsWith('?') ? variable.replace(/_/g, ' ') : label.replace(/:$/, '').replace(/^your\s+/i, '');
    return words.charAt(0).toUpperCase() + words.slice(1);
  }

  /** A variable named inside a sentence ("Please check your date of birth"): fieldLabel, first word in lower case. */
  private fieldNoun(variable: string): string {
    return this.fieldLabel(variable).replace(/^\p{Lu}(?=\p{Ll}|\s|$)/u, (c) => c.toLowerCase());
  }

  start(): void {
    if (!this.loaded) return;
    this.wipe();
    const conversation = this.begin(new FlowEngine(this.loaded, this.clock));
    this.phase = 'running';
    this.activity();
    this.beginVoice();
    conversation.start();
    this.keeping = true;
    this.keep();
  }

  /**
   * One visit's conversation over `engine`, wired to the screen. `actionNonce`: the visit's part of
   * its action ids, kept from before a reload (a new visit gets a new one).
   */
  private begin(engine: FlowEngine, actionNonce?: string): Conversation {
    const model = this.makeModel();
    const fallback = model instanceof OfflineAgent ? model : new OfflineAgent();
    this.engine = engine;
    this.actions = new KioskActions(this.actionRunner, this.actionRunner, this.loaded?.flow.id ?? '', (done) => this.guarded(() => this.conversation?.actionDone(done)), this.timers, actionNonce);
    this.conversation = new Conversation(this.engine, model, fallback, this.clock, this.timers, {
      engine: (ms) => this.onEngine(ms),
      agentSpeech: (reply, text, final) => {
        this.caption(`agent-${reply}`, 'agent', text, final);
        this.voice.reply(reply, text, final);
        this.screenShows();
      },
      visitorSpeech: (text) => this.caption(`visitor-${++this.captionSeq}`, 'visitor', text, true),
      notice: (kind, text, detail) => {
        this.assistantNote = text;
        if (detail) console.warn(`kiosk: ${kind}: ${detail}`);
      },
      busy: (busy) => {
        this.busy = busy;
        this.voice.setThinking(busy);
      },
    });
    return this.conversation;
  }

  /** The microphone and the kiosk's voice for this visit, where the kiosk has them. */
  private beginVoice(): void {
    const parts = this.loaded ? this.voiceParts(this.loaded.flow.language) : null;
    if (!parts) return;
    this.voice.begin(parts, {
      heard: (text) => {
        this.awaitingScreen = true;
        this.say(text);
      },
      interrupted: () => this.conversation?.interrupt(),
    });
  }

  /**
   * "Start over": wipe everything and return to the idle screen. With answers entered it asks
   * first, unless `confirmed` (the visitor said yes to that, or to walking away, or is done) or
   * the visit has failed: on the error screen there is nothing left to go on with.
   */
  startOver(confirmed = false): void {
    if (!confirmed && this.phase === 'running' && this.hasAnswers && !this.onErrorScreen) {
      this.askingStartOver = true;
      this.activity();
      return;
    }
    this.wipe();
    this.phase = this.loaded ? 'idle' : this.phase;
  }

  /** The visitor answered "No, go on" to "Start over?". */
  keepGoing(): void {
    this.askingStartOver = false;
    this.activity();
  }

  /** The flow is in its error state (`__error__`, or the flow's `settings.on_error`). */
  private get onErrorScreen(): boolean {
    const state = this.screen?.state;
    return state !== undefined && (state === ERROR || state === this.loaded?.flow.settings.onError);
  }

  /** Something of the visitor's is on screen: a value, a word said or typed, an action to confirm. */
  get hasAnswers(): boolean {
    return Object.values(this.fields).some((f) => f.value !== '') || this.captions.some((c) => c.who === 'visitor') || this.pendingAction !== null;
  }

  say(text: string): void {
    this.activity();
    this.guarded(() => this.conversation?.say(text));
  }

  submitForm(): void {
    const values = dict<unknown>();
    for (const f of this.screen?.artifact?.fields ?? []) {
      const state = this.fields[f.id];
      if (f.type === 'checkbox') values[f.id] = state?.value === 'true';
      else values[f.id] = state?.value ?? '';
    }
    this.send({ type: 'ui_event', event: 'form_submit', values });
  }

  selectOption(id: string): void {
    this.send({ type: 'ui_event', event: 'option_select', value: id, selected_id: id });
  }

  action(event: string): void {
    if (event === 'start_over') return this.startOver();
    this.send({ type: 'ui_event', event });
  }

  confirmField(variable: string): void {
    this.send({ type: 'ui_event', event: 'confirm_variable', variable });
  }

  /** The form's values waiting for the visitor's yes (not being changed), in the form's order. */
  get waitingFields(): string[] {
    return (this.screen?.artifact?.fields ?? []).filter((f) => this.fields[f.id]?.status === 'pending' && !this.fields[f.id]?.editing).map((f) => f.id);
  }

  /** "Confirm all": every value the visitor sees waiting, confirmed by one tap, in one step. */
  confirmAll(): void {
    const variables = this.waitingFields;
    if (variables.length) this.send({ type: 'ui_event', event: 'confirm_variable', variables });
  }

  /** "Change": opens a pending value for typing. */
  changeField(variable: string): void {
    this.activity();
    const f = this.fields[variable];
    if (f) this.setField(variable, { ...f, editing: true });
    this.keep();
  }

  /** What the visitor types into a field, kept until they submit or leave the field. */
  typeField(variable: string, value: string): void {
    this.activity();
    const f = this.fields[variable] ?? { value: '', status: 'empty', editing: false };
    this.setField(variable, { ...f, value });
    this.keep();
  }

  /** One field's new state, in a new record so the screen sees the change. */
  private setField(variable: string, state: FieldState): void {
    const fields = copy(this.fields);
    fields[variable] = state;
    this.fields = fields;
  }

  /** The visitor finished editing a field by hand: it counts as confirmed. */
  commitField(variable: string): void {
    const f = this.fields[variable];
    if (!f) return;
    this.send({ type: 'ui_event', event: 'field_change', variable, value: f.value });
  }

  confirmAction(yes: boolean): void {
    this.send({ type: 'ui_event', event: yes ? 'confirm_action' : 'reject_action' });
  }

  /** The visitor changed values on the pending action's card: it is proposed again, as an edit. */
  editAction(values: Record<string, string>): void {
    this.send({ type: 'ui_event', event: 'edit_action', values });
  }

  /**
   * Drops a click on a button that acts on the step (marked data-held, and disabled while the
   * screen settles) made while the screen was settling, before the button sees it. It goes by when the finger touched (the event's timeStamp), not by when a busy
   * page got round to it: by then the hold may have ended and the tap would act on the new screen.
   */
  holdTap(e: Event): void {
    if (e.timeStamp >= this.heldUntil) return;
    // Only the buttons that act on the step are held (data-held); Start over, Change and typing are not.
    if (!(e.target instanceof Element) || !e.target.closest('button[data-held]')) return;
    e.stopPropagation();
    e.preventDefault();
  }

  back(): void {
    this.send({ type: 'ui_event', event: 'back' });
  }

  /** The visitor answered "Are you still there?". */
  stillHere(): void {
    this.activity();
  }

  private send(event: UiEventInput): void {
    this.activity();
    this.tapping = true;
    try {
      this.guarded(() => this.conversation?.ui(event));
    } finally {
      this.tapping = false;
    }
  }

  /** After a spoken turn, the first thing it changes on screen is timed (vk:screen). */
  private screenShows(): void {
    if (!this.awaitingScreen) return;
    this.awaitingScreen = false;
    void tick().then(() => requestAnimationFrame(() => this.mark('vk:screen')));
  }

  /** Tells the voice what this step listens for: its settings, and a dictated or a free answer. */
  private listen(): void {
    const screen = this.screen;
    if (!screen) return;
    this.voice.listenFor(
      turnTakingFor(screen.turn_taking),
      expectedAnswer({
        ...(screen.turn_taking.expect ? { expect: screen.turn_taking.expect } : {}),
        fields: screen.artifact?.fields ?? [],
        isEmpty: (v) => (this.fields[v]?.status ?? 'empty') === 'empty',
        actionPending: this.pendingAction !== null,
      }),
    );
  }

  /** A fault in the kiosk itself never leaves a dead screen: the visitor is told and can start over. */
  private guarded(act: () => void): void {
    try {
      act();
    } catch (error) {
      console.error('kiosk:', error);
      this.notice = { near: null, text: 'Sorry, something went wrong here. Please tap Start over, or ask a member of staff.' };
    }
  }

  private caption(id: string, who: Caption['who'], text: string, final: boolean): void {
    const i = this.captions.findIndex((c) => c.id === id);
    const line = { id, who, text, final };
    if (i >= 0) this.captions[i] = line;
    else this.captions.push(line);
    if (this.captions.length > 50) this.captions.splice(0, this.captions.length - 50);
    if (final) this.keep();
  }

  private onEngine(messages: readonly EngineMessage[]): void {
    this.actions?.observe(messages);
    let failed = false;
    if (messages.some((m) => m.type === 'flow_variable' || m.type === 'flow_state' || m.type === 'transition_blocked' || m.type === 'action_pending')) {
      this.screenShows();
    }
    for (const m of messages) {
      switch (m.type) {
        case 'flow_state': {
          this.settle();
          // A tap that moves the flow on: what the kiosk was saying about the old step is moot.
          if (this.tapping) this.voice.silence();
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
          break;
        }
        case 'flow_variable': {
          const f = this.fields[m.name];
          if (!f) break;
          const status: FieldStatus = m.status === 'cleared' ? 'empty' : m.status;
          const editing = f.editing && status !== 'confirmed';
          this.setField(m.name, { value: m.status === 'cleared' ? '' : displayValue(m.value), status, editing });
          if (this.notice?.near === m.name && status !== 'pending') this.notice = null;
          break;
        }
        case 'transition_blocked':
          this.notice = this.blockedNotice(m);
          break;
        case 'action_pending':
          this.settle();
          this.pendingAction = { id: m.action_id, summary: m.summary, fields: this.actionFields(m.tool, m.args) };
          break;
        case 'action_run':
          if (this.pendingAction?.id === m.action_id) {
            // The card gives way: its buttons, and those that move up under a finger, wait a moment.
            this.settle();
            this.actionRunning = this.pendingAction.summary;
            this.pendingAction = null;
          }
          break;
        case 'action_result':
          if (this.pendingAction?.id === m.action_id) this.pendingAction = null;
          if (m.status === 'done' || m.status === 'failed') this.actionRunning = null;
          if (m.status === 'failed') failed = true;
          break;
        case 'engine_error':
          // For the operator: the visitor sees the error screen that follows, never this text.
          console.error(`kiosk: the flow engine failed in step "${m.state}": ${m.message}`);
          break;
        case 'flow_end':
          // The visit is over: a reload now starts on the idle screen.
          this.keeping = false;
          this.visits?.clear();
          this.settle();
          if (m.mode === 'kiosk') this.voice.stopListening();
          this.endValues = this.loaded ? shownValues(this.loaded.flow, this.loaded.catalog, m.variables) : m.variables;
          this.phase = 'ended';
          this.cancelIdle?.();
          this.cancelIdle = null;
          if (m.mode === 'assistant') this.activity();
          else this.countDown(this.settings.endSeconds);
          break;
        default:
          break;
      }
    }
    // After the batch: a failure that moved the flow on stays said on the new screen.
    if (failed) this.notice = { near: null, text: ACTION_FAILED_SENTENCE };
    if (messages.some((m) => m.type === 'flow_state' || m.type === 'flow_variable' || m.type === 'action_pending' || m.type === 'action_result')) this.listen();
    this.keep();
  }

  /** The values of a pending action the visitor may change, from its tool's parameters. */
  private actionFields(tool: string, args: Readonly<Record<string, unknown>>): ActionField[] {
    const state = this.loaded && this.screen ? own(this.loaded.flow.states, this.screen.state) : undefined;
    const def = state && this.loaded ? resolveTool(this.loaded.flow, state, tool) : undefined;
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
    const labels = names.map((v) => this.fieldNoun(v));
    const near = names.find((v) => this.fields[v] !== undefined) ?? null;
    switch (m.reason) {
      case 'pending_confirmation':
        return { near, text: `Please check your ${labels.join(' and ')} first: tap Confirm if it is right, or Change if not.` };
      case 'not_captured':
        return { near, text: `We still need your ${labels.join(' and ')}.` };
      case 'invalid_input':
        return { near, text: `Please check your ${labels.join(' and ')}.` };
      case 'guard_failed':
        return { near: null, text: "That isn't possible yet. Please check your answers." };
    }
  }

  /** Any sign of the visitor: restarts the walk-away timer and dismisses the question. */
  private activity(): void {
    this.lastActivity = this.clock.now();
    this.armIdle(0);
    this.keep();
  }

  /**
   * The walk-away timer, for a visitor quiet for `quietMs` already (0, or the time before a
   * reload): "Are you still there?" when the idle time is up, the wipe after its grace.
   */
  private armIdle(quietMs: number): void {
    this.stillThere = false;
    this.cancelIdle?.();
    this.cancelIdle = null;
    const talking = this.phase === 'running' || (this.phase === 'ended' && this.flowMode === 'assistant');
    if (!talking) return;
    const ask = this.settings.idleSeconds * 1000 - quietMs;
    const wipeAfter = (ms: number) => {
      this.stillThere = true;
      this.cancelIdle = this.timers.schedule(ms, () => this.startOver(true));
    };
    if (ask <= 0) wipeAfter(this.settings.idleGraceSeconds * 1000 + ask);
    else this.cancelIdle = this.timers.schedule(ask, () => wipeAfter(this.settings.idleGraceSeconds * 1000));
  }

  /** Drops the visitor's data: engine, conversation, values, captions, timers and storage. */
  private wipe(): void {
    this.keeping = false;
    this.visits?.clear();
    this.voice.end();
    this.awaitingScreen = false;
    this.conversation?.stop();
    this.conversation = null;
    this.actions?.stop();
    this.actions = null;
    this.engine = null;
    this.cancelEnd?.();
    this.cancelIdle?.();
    this.cancelEnd = null;
    this.cancelIdle = null;
    this.screen = null;
    this.fields = dict();
    this.notice = null;
    this.captions = [];
    this.busy = false;
    this.pendingAction = null;
    this.actionRunning = null;
    this.assistantNote = null;
    this.stillThere = false;
    this.askingStartOver = false;
    this.endsIn = null;
    this.cancelSettle?.();
    this.cancelSettle = null;
    this.settling = false;
    this.heldUntil = 0;
    this.endValues = null;
    try {
      // Everything but the operator's device settings (the kiosk's setup, never a visitor's).
      clearVisitorStorage();
    } catch {
      // Storage may be unavailable (private mode); there is then nothing in it to wipe.
    }
    // IndexedDB and Cache Storage answer later; nothing waits for them.
    void sweepBrowserStores();
    // JavaScript keeps the input of the last successful match in RegExp.input (and $_, lastMatch,
    // $1...): a visitor's sentence could outlive the visit there. A match on nothing replaces it.
    /(?:)/.exec('');
  }

  /** The end screen's countdown, a second at a time; at zero the kiosk wipes itself. */
  private countDown(seconds: number): void {
    this.endsIn = Math.ceil(seconds);
    const next = seconds - (this.endsIn - 1);
    this.cancelEnd = this.timers.schedule(Math.max(0, next) * 1000, () => {
      if (this.endsIn !== null && this.endsIn > 1) this.countDown(this.endsIn - 1);
      else this.startOver(true);
    });
  }

  /** A screen changed: its buttons are held for a moment, so a second tap meant for the old one
   *  (a double tap) cannot act on the new one. Browsers and test tools wait for them. */
  private settle(): void {
    this.cancelSettle?.();
    this.settling = true;
    this.heldUntil = performance.now() + SETTLE_MS;
    this.cancelSettle = this.timers.schedule(SETTLE_MS, () => {
      this.cancelSettle = null;
      this.settling = false;
    });
  }
}
