// The kiosk as the screen sees it: its flow, its own life (kiosk-life.ts, an XState machine the
// screens read through @xstate/svelte), the step on screen (step-view.svelte.ts) and the visit in
// progress (visit.svelte.ts: one visitor's conversation, captions and voice), and what the
// visitor does. The machine decides when a visit starts, asks, times out and ends; the kiosk
// performs it. Wiping (end of visit, walk-away, "Start over") drops every trace of the visitor
// from memory and storage, and closes the microphone.

import { useLanguage } from './i18n/i18n.ts';
import { words, type Words } from './i18n/words.ts';
import { useSelector } from '@xstate/svelte';
import { fromStore } from 'svelte/store';
import { createActor, type Actor } from 'xstate';
import type { Diagnostic } from '../engine/language/diagnostics.ts';
import { FlowEngine } from '../engine/runtime/engine.ts';
import type { LoadedFlow } from '../engine/language/loaded-flow.ts';
import { dict } from '../engine/language/records.ts';
import { takeAwayLines, type GivenLine } from '../engine/runtime/shown-values.ts';
import type { UiEventInput } from '../engine/runtime/messages.ts';
import { systemClock, type Clock } from '../ports/clock.ts';
import { browserTimers, type Timers } from '../ports/timers.ts';
import { sweepBrowserStores } from '../pwa/privacy-sweep.ts';
import { kioskLife, lifeView, sameView, type LifeEvent, type LifeView, type Phase } from './kiosk-life.ts';
import { KioskVoice, browserMark } from './kiosk-voice.svelte.ts';
import { dropHeldTap } from './tap-hold.ts';
import type { KioskParts } from './kiosk-parts.ts';
import type { KioskSettings } from './kiosk-settings.ts';
import { clearVisitorStorage } from './device-settings.ts';
import { StepView, type FieldState } from './step-view.svelte.ts';
import { takeUpVisit } from './visit-keeping.ts';
import { Visit, type Caption, type VisitPlace } from './visit.svelte.ts';
import { VisitorControls } from './visitor-controls.svelte.ts';

export { settingsFrom, type KioskSettings } from './kiosk-settings.ts';
export type { KioskParts } from './kiosk-parts.ts';
export type { Phase } from './kiosk-life.ts';
export type { ActionField, FieldState, FieldStatus, Notice, PendingActionView } from './step-view.svelte.ts';
export type { Caption } from './visit.svelte.ts';

/** How long a new screen's buttons wait before they act: longer than the gap of a double tap. */
const SETTLE_MS = 450;

/** The flow's title for people: a flow without one has its id, shown in words ("booking_wizard" → "Booking wizard"). */
export function shownTitle(title: string, id: string): string {
  if (title !== id) return title;
  const words = id.replace(/[-_]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export class Kiosk {
  source = $state('');
  /** the version of a flow from an address, as the kiosk's server keeps it (its actions name it) */
  private version: string | undefined;
  diagnostics = $state<Diagnostic[]>([]);
  /** the flow file could not be had at all (its address silent, or no such flow), rather than had errors */
  unloaded = $state<'unreachable' | 'not_found' | null>(null);
  /** the language the kiosk shows and speaks: the visit's, and the flow's default between visits */
  language = $state('en');
  /** what the end screen shows the visitor to take away (the flow's show_at_end values, labelled in their words) */
  takeAway = $state<GivenLine[]>([]);
  /** the visit in progress, from Start (or a reload that takes it up) until the wipe */
  visit = $state.raw<Visit | null>(null);
  readonly step: StepView;
  readonly voice: KioskVoice;
  /** what the visitor can ask of the kiosk itself: repeat, stop, volume, more time, guidance, text size, contrast, layout */
  readonly controls: VisitorControls;
  readonly settings: KioskSettings;
  /** the kiosk's own life; the screens read it through `view` */
  readonly life: Actor<typeof kioskLife>;
  /** the flow says it needs a language model (`settings.llm_required`) */
  private llmRequired = $state(false);
  private readonly view: { readonly current: LifeView };
  private loaded = $state.raw<LoadedFlow | null>(null);
  /** a tap made before this time (ms, the clock of events' timeStamp) was meant for the screen before */
  private heldUntil = 0;
  private readonly clock: Clock;
  private readonly timers: Timers;

  constructor(private readonly parts: KioskParts) {
    this.settings = parts.settings;
    this.clock = parts.clock ?? systemClock;
    this.timers = parts.timers ?? browserTimers;
    this.voice = new KioskVoice(parts.mark ?? browserMark);
    this.step = new StepView(() => this.visit?.flow ?? this.loaded);
    const timers = this.timers;
    const { endSeconds, idleSeconds, idleGraceSeconds } = this.settings;
    this.life = createActor(
      kioskLife.provide({
        actions: {
          wipe: () => this.wipe(),
          holdTaps: () => {
            this.heldUntil = performance.now() + SETTLE_MS;
          },
          announceLimit: () => this.controls.limitShown(),
        },
      }),
      {
        input: { timing: { idleMs: idleSeconds * 1000, graceMs: idleGraceSeconds * 1000, endMs: endSeconds * 1000, settleMs: SETTLE_MS } },
        // The machine's timers run on the kiosk's timers port (browser timers, or a test's).
        clock: { setTimeout: (fn, ms) => timers.schedule(ms, fn), clearTimeout: (cancel: () => void) => cancel() },
      },
    ).start();
    this.view = fromStore(useSelector(this.life, lifeView, sameView));
    const note = (name: string) => (name === 'voice' ? this.voice.note : name === 'assistant' ? this.assistantNote : this.operatorNote);
    this.controls = new VisitorControls({ voice: this.voice, step: this.step, phase: () => this.phase, stillThere: () => this.stillThere, language: () => this.language, tell: (e) => this.tell(e), ui: (e) => this.send(e), stirred: () => this.visit?.activity(), note }, parts.access);
  }

  // ------------------------------------------------------------------ what the screens read

  get phase(): Phase {
    return this.view.current.phase;
  }
  /** a screen has just changed: its buttons wait a moment, so a double tap cannot act on it */
  get settling(): boolean {
    return this.view.current.settling;
  }
  get stillThere(): boolean {
    return this.view.current.stillThere;
  }
  /** "Start over" was tapped with answers entered: the kiosk asks first */
  get askingStartOver(): boolean {
    return this.view.current.askingStartOver;
  }
  /** seconds until the end screen clears itself (kiosk mode), counting down */
  get endsIn(): number | null {
    return this.view.current.endsIn;
  }
  get captions(): Caption[] {
    return this.visit?.captions ?? [];
  }
  get busy(): boolean {
    return this.visit?.busy ?? false;
  }
  get assistantNote(): string | null {
    return this.visit?.assistantNote ?? null;
  }

  /** What staff must know about this kiosk's setup, or null. */
  get operatorNote(): Words | null {
    return this.llmRequired && !(this.parts.hasModel?.() ?? false) ? words('assistant.needsModel') : null;
  }

  get flowMode(): 'kiosk' | 'assistant' {
    return this.loaded?.flow.mode ?? 'kiosk';
  }

  /**
   * The visitor has given something this visit: a value on screen or on an earlier step (typed,
   * tapped or said), a word said or typed, an action to confirm. "Start over" then asks first.
   */
  get hasAnswers(): boolean {
    return this.step.hasEntries || (this.visit?.visitorSpoke ?? false) || (this.visit?.gaveValues ?? false);
  }

  // ------------------------------------------------------------------ the kiosk's life

  private tell(event: LifeEvent): void {
    this.life.send(event);
  }

  private get inVisit(): boolean {
    return this.life.getSnapshot().matches({ life: 'visit' });
  }

  /** Loads the flow named in the page's query string; takes up a visit kept before a reload. */
  async load(search: string): Promise<void> {
    const result = await this.parts.flows.load(search);
    this.source = result.source;
    this.version = result.version;
    this.diagnostics = result.diagnostics;
    this.unloaded = result.unloaded ?? null;
    if (!result.loaded) return this.tell({ type: 'flow.invalid' });
    this.loaded = result.loaded;
    this.showIn(result.loaded.flow.defaultLanguage);
    this.llmRequired = result.loaded.flow.settings.llmRequired;
    if (!this.resume(result.loaded)) this.tell({ type: 'flow.loaded' });
  }

  /** The operator's panel opened or closed (it sits over the idle or the broken-flow screen). */
  operatorPanel(open: boolean): void {
    this.tell({ type: open ? 'panel.opened' : 'panel.closed' });
  }

  /** Takes up the visit kept before a reload or a crash (see visit-keeping.ts); nothing is confirmed, entered or run anew. */
  private resume(loaded: LoadedFlow): boolean {
    const taken = takeUpVisit(this.parts.visits ?? null, loaded, this.source, this.clock, this.settings);
    if (!taken) return false;
    this.controls.resume(taken.kept.choices);
    this.visit = new Visit(this.place(loaded), taken.restored.engine, taken.kept.actionNonce);
    this.tell({ type: 'visit.resumed', quietMs: taken.quietMs });
    this.visit.resume(taken.kept, taken.restored.messages);
    return true;
  }

  /** The flow's title, in the language the kiosk shows. */
  get title(): string {
    const shown = this.visit?.flow ?? this.loaded;
    return shown ? shownTitle(shown.flow.title, shown.flow.id) : '';
  }

  /** The languages a visitor may choose (the flow's, its default first); one: no choice to offer. */
  get languages(): readonly string[] {
    return this.loaded?.flow.languages ?? [];
  }

  /** Start, or a language on the idle screen: a visit in it (else the flow's default); `guided`: with audio guidance on. */
  start(language?: string, guided = false): void {
    if (!this.loaded) return;
    this.tell({ type: 'start' });
    if (!this.inVisit) return;
    const chosen = language !== undefined && this.languages.includes(language) ? this.loaded.inLanguage(language) : this.loaded;
    this.showIn(chosen.flow.language);
    this.visit = new Visit(this.place(this.loaded), this.parts.engine?.(chosen, this.clock) ?? new FlowEngine(chosen, this.clock));
    this.visit.start();
    if (guided) this.controls.setGuidance(true);
  }

  /** The visitor chose another language in the top bar: the visit goes on in it, keeping every answer. */
  setLanguage(language: string): void {
    this.visit?.setLanguage(language);
  }

  /** The screen's own words in `language` from now on (the flow's texts come from the engine in it). */
  private showIn(language: string): void {
    this.language = language;
    useLanguage(language);
  }

  /** What a visit needs of the kiosk. */
  private place(loaded: LoadedFlow): VisitPlace {
    return {
      loaded,
      source: this.source,
      ...(this.version ? { version: this.version } : {}),
      parts: this.parts,
      clock: this.clock,
      timers: this.timers,
      mark: this.parts.mark ?? browserMark,
      visits: this.parts.visits ?? null,
      step: this.step,
      voice: this.voice,
      tell: (event) => this.tell(event),
      inVisit: () => this.inVisit,
      ended: (variables, flow) => {
        this.takeAway = takeAwayLines(flow.flow, flow.catalog, variables);
        const lastCard = this.step.screen?.terminal === true && this.step.screen.artifact !== null;
        return this.takeAway.length > 0 || lastCard || this.step.notice !== null;
      },
      controls: this.controls,
      languageChanged: (language) => {
        if (language === this.language) return;
        this.showIn(language);
        const home = language === loaded.flow.defaultLanguage;
        this.voice.setLanguage(this.parts.spokenLanguage?.(language, home) ?? language);
      },
    };
  }

  /**
   * "Start over": wipe everything and return to the idle screen. With answers entered the kiosk
   * asks first, unless `confirmed` (the visitor said yes to that, or is done) or the visit has
   * failed: on the error screen there is nothing left to go on with. The machine decides.
   */
  startOver(confirmed = false): void {
    this.tell({ type: 'start_over', confirmed, answers: this.hasAnswers });
    if (!this.askingStartOver) return;
    this.visit?.activity();
    this.controls.askedStartOver();
  }

  /** The visitor answered "No, go on" to "Start over?". */
  keepGoing(): void {
    this.tell({ type: 'keep_going' });
    this.visit?.activity();
  }

  /** "Finish" on the end screen. */
  finish(): void {
    this.tell({ type: 'finish' });
  }

  // ------------------------------------------------------------------ what the visitor does

  say(text: string): void {
    this.visit?.say(text);
  }

  submitForm(): void {
    const values = dict<unknown>();
    for (const f of this.step.screen?.artifact?.fields ?? []) {
      const state = this.step.fields[f.id];
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
    // A second tap while the first one's action runs (a double tap on "Find my appointment") acts
    // no more, even if it came before the button could grey (issue 30 point 2).
    if (this.step.busy) return;
    this.send({ type: 'ui_event', event });
  }

  confirmField(variable: string): void {
    this.send({ type: 'ui_event', event: 'confirm_variable', variable });
  }

  /** "Confirm all": every value the visitor sees waiting, confirmed by one tap, in one step. */
  confirmAll(): void {
    const variables = this.step.waitingFields;
    if (variables.length) this.send({ type: 'ui_event', event: 'confirm_variable', variables });
  }

  /** "Change": opens a pending value for typing. */
  changeField(variable: string): void {
    const f = this.step.fields[variable];
    if (f) this.step.setField(variable, { ...f, editing: true });
    this.visit?.activity();
  }

  /** What the visitor types into a field, kept until they submit or leave the field. */
  typeField(variable: string, value: string): void {
    const f: FieldState = this.step.fields[variable] ?? { value: '', status: 'empty', editing: false };
    this.step.setField(variable, { ...f, value });
    this.visit?.activity();
  }

  /** The visitor finished editing a field by hand: it counts as confirmed. */
  commitField(variable: string): void {
    const f = this.step.fields[variable];
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

  back(): void {
    this.send({ type: 'ui_event', event: 'back' });
  }

  /** The visitor answered "Are you still there?". */
  stillHere(): void {
    this.visit?.activity();
  }

  private send(event: UiEventInput): void {
    this.visit?.ui(event);
  }

  /** A click made while the screen settles, on a button that acts on the step, is dropped and shown as seen (tap-hold.ts). */
  holdTap(e: Event): void {
    dropHeldTap(e, this.heldUntil, this.parts.mark ?? browserMark, this.timers);
  }

  /** Drops the visitor's data: the visit, the step, and storage (the kiosk's life has stopped its timers). */
  private wipe(): void {
    if (this.visit) this.controls.reset(); // the visitor's choices, not those made on the idle screen before this visit
    this.visit?.stop();
    this.visit = null;
    this.parts.visits?.clear();
    this.voice.end();
    this.step.clear();
    // Each visit starts in the flow's default language again.
    if (this.loaded) this.showIn(this.loaded.flow.defaultLanguage);
    this.heldUntil = 0;
    this.takeAway = [];
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
}
