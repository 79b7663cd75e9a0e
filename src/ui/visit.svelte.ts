// One visitor's conversation with the flow, from Start (or a reload that takes it up) to the wipe:
// the FlowEngine, its Conversation, the flow's actions, the captions of both sides, the microphone
// and the kiosk's voice, and the copy kept on the device at every change. What the engine says
// goes to the step on screen (step-view.svelte.ts) and, as events, to the kiosk's life.

import { tick, untrack } from 'svelte';
import { kioskSentence } from '../engine/runtime/kiosk-sentences.ts';
import { words } from './i18n/words.ts';
import type { FlowEngine } from '../engine/runtime/engine.ts';
import { ERROR } from '../engine/language/flow.ts';
import { isBlank } from '../engine/language/values.ts';
import type { LoadedFlow } from '../engine/language/loaded-flow.ts';
import type { ActionDoneInput, EngineMessage, UiEventInput } from '../engine/runtime/messages.ts';
import type { Clock } from '../ports/clock.ts';
import type { Timers } from '../ports/timers.ts';
import type { KeptVisit, VisitStore } from '../pwa/visit-store.ts';
import { Conversation } from '../voice/conversation.ts';
import { choicesOf, expectedAnswer, turnTakingFor } from '../voice/listening.ts';
import { KioskActions } from './kiosk-actions.ts';
import type { LifeEvent } from './kiosk-life.ts';
import type { KioskVoice, MarkFn } from './kiosk-voice.svelte.ts';
import type { KioskParts } from './kiosk-parts.ts';
import type { StepView } from './step-view.svelte.ts';
import { keptVisit } from './visit-keeping.ts';
import { TimeWarnings, type NearLimit } from './time-warnings.ts';
import type { VisitorControls } from './visitor-controls.svelte.ts';

export interface Caption {
  id: string;
  who: 'visitor' | 'agent';
  text: string;
  final: boolean;
}

/** What a visit needs of the kiosk around it. */
export interface VisitPlace {
  loaded: LoadedFlow;
  /** the flow as the kiosk loaded it (a bundled name or an address), kept with the copy */
  source: string;
  /** the version of a flow from an address, as the kiosk's server keeps it */
  version?: string;
  parts: KioskParts;
  clock: Clock;
  timers: Timers;
  mark: MarkFn;
  visits: VisitStore | null;
  step: StepView;
  voice: KioskVoice;
  /** tells the kiosk's life what happened */
  tell(event: LifeEvent): void;
  /** the kiosk's life is in a visit (the copy is kept only then) */
  inVisit(): boolean;
  /**
   * the flow ended with these values (in the flow as the visit ran it, in its language), for the
   * end screen; true when it shows something to read (what to take away, the last step's card)
   */
  ended(variables: Record<string, unknown>, flow: LoadedFlow): boolean;
  /** the visit is in another language now: the screen's words and the voice follow */
  languageChanged(language: string): void;
  /** what the visitor asks of the kiosk itself, and what the kiosk tells them of (audio guidance, time limits) */
  controls: VisitorControls;
}

export class Visit {
  captions = $state<Caption[]>([]);
  busy = $state(false);
  assistantNote = $state<string | null>(null);
  /** the flow's time limits near enough to be warned of (the step's, the visit's, a value's or an action's), the soonest first */
  nearLimits = $state<readonly NearLimit[]>([]);

  private readonly conversation: Conversation;
  private readonly actions: KioskActions;
  private readonly limits: TimeWarnings;
  private captionSeq = 0;
  /** a spoken turn was handed on and its effect has not reached the screen yet (vk:screen) */
  private awaitingScreen = false;
  /** the engine's messages being handled come from a tap */
  private tapping = false;
  /** the visit is kept for a reload at every change (from its first step until it ends or is wiped) */
  private keeping = false;
  /** clock time of the visitor's last sign of activity */
  private lastActivity = 0;
  /** the variables holding something the visitor gave (typed, tapped, said, or an answer to their action) */
  private readonly given = new Set<string>();
  /** stops keeping the visit again at each change of the visitor's choices */
  private readonly unwatchChoices: () => void;

  /** `actionNonce`: the visit's part of its action ids, kept from before a reload (a new visit gets a new one). */
  constructor(
    private readonly place: VisitPlace,
    private readonly engine: FlowEngine,
    actionNonce?: string,
  ) {
    const { parts } = place;
    // A choice of the visitor's (guidance, volume, text size, contrast, layout) is kept with the visit as it changes.
    this.unwatchChoices = $effect.root(() => {
      $effect(() => {
        place.controls.access.kept();
        untrack(() => this.keep());
      });
    });
    this.limits = new TimeWarnings(place.clock, place.timers, { changed: (near) => (this.nearLimits = near), warned: () => place.controls.limitWarned() });
    const model = parts.model();
    const flow = { flow_id: place.loaded.flow.id, flow_source: place.source, ...(place.version ? { flow_version: place.version } : {}) };
    this.actions = new KioskActions(parts.actionRunner, parts.actionRunner, flow, (done: ActionDoneInput) => this.guarded(() => this.conversation.actionDone(done)), place.timers, actionNonce);
    this.conversation = new Conversation(engine, model, parts.fallback(model), place.clock, place.timers, {
      engine: (ms) => this.onEngine(ms),
      agentSpeech: (reply, text, final) => {
        this.caption(`agent-${reply}`, 'agent', text, final);
        place.voice.reply(reply, text, final);
        this.screenShows();
      },
      visitorSpeech: (text) => this.caption(`visitor-${++this.captionSeq}`, 'visitor', text, true),
      notice: (kind, text, detail) => {
        this.assistantNote = text;
        if (detail) console.warn(`kiosk: ${kind}: ${detail}`);
      },
      busy: (busy) => {
        this.busy = busy;
        place.voice.setThinking(busy);
      },
      prepared: (outcome) => place.mark(`vk:early-reply-${outcome}`),
    });
  }

  /** A new visit: the voice, the flow's first step, and the copy kept from now on. */
  start(): void {
    this.activity();
    this.beginVoice();
    this.conversation.start();
    this.keeping = true;
    this.keep();
  }

  /** The visit kept before a reload, taken up where it stood. Actions sent before it are asked after, never sent again. */
  resume(kept: KeptVisit, messages: readonly EngineMessage[]): void {
    for (const run of kept.engine.session.running) this.actions.recover({ actionId: run.id, serverId: this.actions.serverId(run.id), tool: run.tool });
    this.captions = kept.captions;
    this.captionSeq = kept.captionSeq;
    this.conversation.resume(messages, kept.conversation);
    this.place.step.restoreTyped(kept.fields);
    this.lastActivity = kept.lastActivity;
    // What was given before the reload: every value but the flow's own defaults.
    const { variables } = this.engine.loaded.flow;
    for (const [name, value] of Object.entries(this.engine.view.values)) {
      if (!isBlank(value) && !(Object.hasOwn(variables, name) && variables[name]!.default === value)) this.given.add(name);
    }
    this.keeping = true;
    this.keep();
    this.beginVoice();
  }

  /** Ends the visit: the conversation, its actions, the microphone and the voice stop; the copy is deleted. */
  stop(): void {
    this.unwatchChoices();
    this.limits.stop();
    this.keeping = false;
    this.place.visits?.clear();
    this.place.voice.end();
    this.awaitingScreen = false;
    this.conversation.stop();
    this.actions.stop();
  }

  /** Something the visitor said or typed: a request to the kiosk itself ("repeat") never reaches the flow. */
  say(text: string): void {
    this.activity();
    if (this.place.controls.command(text)) return this.caption(`visitor-${++this.captionSeq}`, 'visitor', text.trim(), true);
    this.guarded(() => this.conversation.say(text));
  }

  /** The flow as the visit runs it: its texts in the visit's language. */
  get flow(): LoadedFlow {
    return this.engine.loaded;
  }

  /** The visitor chose another of the flow's languages: everything given so far is kept. */
  setLanguage(language: string): void {
    this.activity();
    this.tapping = true;
    try {
      this.guarded(() => this.conversation.setLanguage(language));
    } finally {
      this.tapping = false;
    }
  }

  /** Something the visitor tapped. */
  ui(event: UiEventInput): void {
    this.activity();
    this.tapping = true;
    try {
      this.guarded(() => this.conversation.ui(event));
    } finally {
      this.tapping = false;
    }
  }

  /** Any sign of the visitor: restarts the walk-away timer and dismisses the question. */
  activity(): void {
    this.place.voice.visitorActed();
    this.lastActivity = this.place.clock.now();
    this.place.tell({ type: 'activity' });
    this.keep();
  }

  /** Something of the visitor's was said or typed. */
  get visitorSpoke(): boolean {
    return this.captions.some((c) => c.who === 'visitor');
  }

  /** The visit holds something the visitor gave, on this step or an earlier one (the flow's own defaults and hooks aside). */
  get gaveValues(): boolean {
    return this.given.size > 0;
  }

  /** Keeps the visit as it stands now, for a reload or a crash. */
  keep(): void {
    const { visits } = this.place;
    if (!this.keeping || !visits || !this.place.inVisit()) return;
    try {
      visits.save(
        keptVisit({
          source: this.place.source,
          savedAt: this.place.clock.now(),
          lastActivity: this.lastActivity,
          engine: this.engine,
          conversation: this.conversation,
          captions: this.captions,
          captionSeq: this.captionSeq,
          fields: this.place.step.fields,
          actionNonce: this.actions.nonce,
          choices: this.place.controls.access.kept(),
        }),
      );
    } catch (error) {
      // Keeping is a safety net: the visit goes on without it.
      console.warn(`kiosk: could not keep the visit for a reload (${(error as Error).message})`);
    }
  }

  /** The microphone and the kiosk's voice for this visit, where the kiosk has them. */
  private beginVoice(): void {
    const { flow } = this.engine.loaded;
    const parts = this.place.parts.voiceParts?.(flow.language, flow.language === flow.defaultLanguage) ?? null;
    if (!parts) return;
    this.place.voice.begin(parts, {
      heard: (text) => {
        this.awaitingScreen = true;
        this.say(text);
      },
      interrupted: () => this.conversation.interrupt(),
      likelyTurn: (text) => this.guarded(() => this.conversation.prepare(text)),
      wentOn: () => this.conversation.dropPrepared(),
    });
  }

  /** After a spoken turn, the first thing it changes on screen is timed (vk:screen). */
  private screenShows(): void {
    if (!this.awaitingScreen) return;
    this.awaitingScreen = false;
    void tick().then(() => requestAnimationFrame(() => this.place.mark('vk:screen')));
  }

  /** Tells the voice what this step listens for: its settings, a dictated or a free answer, and what its words are read against. */
  private listen(): void {
    const { step } = this.place;
    const screen = step.screen;
    if (!screen) return;
    this.place.voice.listenFor({
      settings: turnTakingFor(screen.turn_taking),
      expectation: expectedAnswer({
        ...(screen.turn_taking.expect ? { expect: screen.turn_taking.expect } : {}),
        fields: screen.artifact?.fields ?? [],
        isEmpty: (v) => (step.fields[v]?.status ?? 'empty') === 'empty',
        actionPending: step.pendingAction !== null,
      }),
      language: screen.language,
      choices: choicesOf(screen),
    });
  }

  /** A fault in the kiosk itself never leaves a dead screen: the visitor is told and can start over. */
  private guarded(act: () => void): void {
    try {
      act();
    } catch (error) {
      console.error('kiosk:', error);
      this.place.step.notice = { near: null, text: words('step.wentWrong') };
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
    const { step, loaded } = this.place;
    this.actions.observe(messages);
    let failed = false;
    if (messages.some((m) => m.type === 'flow_variable' || m.type === 'flow_state' || m.type === 'transition_blocked' || m.type === 'action_pending')) {
      this.screenShows();
    }
    for (const m of messages) {
      if (m.type === 'flow_variable' && m.source !== 'hook') {
        if (m.status === 'cleared' || isBlank(m.value)) this.given.delete(m.name);
        else this.given.add(m.name);
      }
      const change = step.apply(m);
      if (change.screenChanged) this.place.tell({ type: 'screen.changed' });
      failed ||= change.actionFailed;
      if (m.type === 'flow_state') {
        this.place.languageChanged(m.language);
        // A tap that moves the flow on: what the kiosk was saying about the old step is moot.
        if (this.tapping) this.place.voice.silence();
        this.place.tell({ type: 'flow.step', failed: m.state === ERROR || m.state === loaded.flow.settings.onError });
      } else if (m.type === 'engine_error') {
        // For the operator: the visitor sees the error screen that follows, never this text.
        console.error(`kiosk: the flow engine failed in step "${m.state}": ${m.message}`);
      } else if (m.type === 'flow_end') {
        // The visit is over: a reload now starts on the idle screen.
        this.keeping = false;
        this.place.visits?.clear();
        this.place.tell({ type: 'screen.changed' });
        // A kiosk flow's end screen hears no more, but for the kiosk's own words when the visitor
        // relies on them (audio guidance: "more time", "repeat"); nothing said reaches the model.
        if (m.mode === 'kiosk' && !this.place.controls.listensAtEnd) this.place.voice.stopListening();
        const toRead = this.place.ended(m.variables, this.engine.loaded);
        this.place.controls.ended();
        this.place.tell({ type: 'flow.ended', assistant: m.mode === 'assistant', toRead });
      }
    }
    // After the batch: a failure that moved the flow on stays said on the new screen.
    if (failed) step.notice = { near: null, text: kioskSentence('action_failed', this.engine.loaded.flow.language) };
    if (messages.some((m) => m.type === 'flow_state' || m.type === 'flow_variable' || m.type === 'action_pending' || m.type === 'action_result')) this.listen();
    this.limits.watch(this.engine.view.limits);
    this.place.controls.afterEngine(messages);
    this.keep();
  }
}
