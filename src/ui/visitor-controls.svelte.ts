// What the visitor can ask of the kiosk itself, by button, key or voice: say the last thing again,
// stop speaking, louder or quieter, more time, audio guidance, larger text, high contrast and the
// controls lower. It owns the visit's choices (access.svelte.ts) and the guidance (guide.ts), and
// the keys a keyboard or a tactile keypad sends: Tab and the arrows move, Enter chooses, Escape
// stops the voice, a digit chooses an option. The wipe puts everything back for the next visitor.

import { get } from 'svelte/store';
import type { EngineMessage, UiEventInput } from '../engine/runtime/messages.ts';
import type { KeptChoices } from '../pwa/visit-store.ts';
import { spokenCommand, spokenNumber, type SpokenCommand } from '../voice/spoken-commands.ts';
import { Access } from './access.svelte.ts';
import { DEFAULT_VOLUME, VOLUME_LEVELS, type AccessDefaults } from './access-levels.ts';
import { Guide } from './guide.ts';
import { t, type MessageKey } from './i18n/i18n.ts';
import type { KioskVoice } from './kiosk-voice.svelte.ts';
import type { LifeEvent, Phase } from './kiosk-life.ts';
import type { StepView } from './step-view.svelte.ts';

/** What the controls need of the kiosk around them. */
export interface ControlsPlace {
  voice: KioskVoice;
  step: StepView;
  phase(): Phase;
  stillThere(): boolean;
  /** the visit's language */
  language(): string;
  tell(event: LifeEvent): void;
  /** a UI event for the engine, as a tap sends it (nothing outside a visit) */
  ui(event: UiEventInput): void;
  /** a sign of the visitor: the walk-away wait starts again */
  stirred(): void;
  /** a note beside the captions now (about the voice, the assistant, the setup), read out when it comes */
  note(name: keyof typeof NOTES): unknown;
}

/** Where each note is on screen. */
const NOTES = { voice: '.voice-note', assistant: '.assistant-note', operator: '.operator-note' } as const;

/** Keys that move the focus, and which way (in a left-to-right page). */
const MOVES: Readonly<Record<string, 1 | -1>> = { ArrowDown: 1, ArrowRight: 1, ArrowUp: -1, ArrowLeft: -1 };

/** What the keys can reach: the controls a visitor can use, in the page's order. */
const FOCUSABLE = 'button, input, select, textarea, [tabindex]:not([tabindex="-1"])';

export class VisitorControls {
  readonly access: Access;
  readonly guide: Guide;

  /** `defaults`: how each visit starts (the operator's); none: DEFAULT_VOLUME and the standard layout. */
  constructor(
    private readonly place: ControlsPlace,
    defaults: AccessDefaults = { volume: DEFAULT_VOLUME, lower: false },
  ) {
    this.access = new Access(defaults);
    this.guide = new Guide(place.voice, () => this.access.guidance);
    place.voice.setVolume(this.access.gain);
    // A note that comes (the microphone is blocked, the assistant takes over) is read out as it comes.
    $effect.root(() => {
      for (const [name, selector] of Object.entries(NOTES) as [keyof typeof NOTES, string][]) {
        $effect(() => {
          if (place.note(name)) this.guide.part(selector);
        });
      }
    });
  }

  // ------------------------------------------------------------------ what the kiosk tells them of

  /** The engine's messages have been taken in: what they changed on screen is read out (guidance). */
  afterEngine(messages: readonly EngineMessage[]): void {
    this.guide.afterEngine(messages);
  }

  /** The flow has ended: with guidance on, the end screen is read out. */
  ended(): void {
    this.guide.screen();
  }

  /** A time limit of the flow is near (the step's, the visit's, a value's or an action's): the warning, on screen now, is said. */
  limitWarned(): void {
    this.guide.limit('[data-limit="step"]');
  }

  /** The life machine's announceLimit: "Are you still there?" or the end screen's countdown is said. */
  limitShown(): void {
    this.guide.limit('[data-limit="still-there"], [data-limit="end"]');
  }

  /** "Start over?" is asked: with guidance on, it is read out. */
  askedStartOver(): void {
    this.guide.part('[data-dialog="start-over"]');
  }

  /** The microphone stays open on a kiosk flow's end screen, for "more time" and "repeat" (audio guidance). */
  get listensAtEnd(): boolean {
    return this.access.guidance;
  }

  // ------------------------------------------------------------------ the voice

  /** Says again what the kiosk said last (with guidance on and nothing said yet: the screen). */
  repeat(): void {
    this.place.stirred();
    if (!this.place.voice.repeat()) this.guide.screen();
  }

  /** Silences the kiosk at once. */
  stop(): void {
    this.place.voice.silence();
  }

  louder(): void {
    this.volume(this.access.louder());
  }

  quieter(): void {
    this.volume(this.access.quieter());
  }

  private volume(changed: boolean): void {
    this.place.stirred();
    if (changed) this.place.voice.setVolume(this.access.gain);
    // Said at the new level, so the visitor hears what it is.
    this.place.voice.echo(this.words('access.volume', { level: this.access.volume, max: VOLUME_LEVELS }));
  }

  /** Audio guidance on or off. */
  setGuidance(on: boolean): void {
    this.place.stirred();
    if (on === this.access.guidance) {
      if (on) this.guide.screen();
      return;
    }
    this.access.guidance = on;
    if (on) this.guide.begin();
    else this.guide.end();
  }

  // ------------------------------------------------------------------ time

  /** "More time": the walk-away question answered, the end screen's countdown or the step's timeout doubled. */
  moreTime(): void {
    if (this.place.stillThere()) return this.place.stirred();
    if (this.place.phase() === 'ended') return this.place.tell({ type: 'more_time' });
    this.place.ui({ type: 'ui_event', event: 'more_time' });
  }

  // ------------------------------------------------------------------ seeing and reaching

  larger(): void {
    this.access.larger();
    this.stateSaid(this.words('access.textSize', { percent: this.access.textSize }));
  }

  smaller(): void {
    this.access.smaller();
    this.stateSaid(this.words('access.textSize', { percent: this.access.textSize }));
  }

  toggleContrast(): void {
    this.access.contrast = !this.access.contrast;
    this.stateSaid(`${this.words('access.contrast')}: ${this.words(this.access.contrast ? 'focus.on' : 'focus.off')}`);
  }

  toggleLower(): void {
    this.access.lower = !this.access.lower;
    this.stateSaid(`${this.words('access.lower')}: ${this.words(this.access.lower ? 'focus.on' : 'focus.off')}`);
  }

  /** A choice changed: with guidance on, the visitor hears its new state. */
  private stateSaid(text: string): void {
    this.place.stirred();
    if (this.access.guidance) this.place.voice.echo(text);
  }

  // ------------------------------------------------------------------ words and keys

  /**
   * What the visitor said or typed, when it is a request to the kiosk itself (or an option's
   * number, on a step of options): done here, and true; the flow and the model never get it.
   */
  command(text: string): boolean {
    const language = this.place.language();
    const command = spokenCommand(text, language);
    if (command) {
      this.perform(command);
      return true;
    }
    const n = this.place.step.screen?.artifact?.type === 'options' ? spokenNumber(text, language) : null;
    return n !== null && this.chooseOption(n);
  }

  private perform(command: SpokenCommand): void {
    const act: Record<SpokenCommand, () => void> = {
      repeat: () => this.repeat(),
      guidance: () => this.setGuidance(true),
      more_time: () => this.moreTime(),
      louder: () => this.louder(),
      quieter: () => this.quieter(),
      stop: () => this.stop(),
    };
    act[command]();
  }

  /** Option `n` (from 1) of the step on screen, as a tap on it; false when there is none. */
  private chooseOption(n: number): boolean {
    const artifact = this.place.step.screen?.artifact;
    const option = artifact?.type === 'options' ? artifact.options[n - 1] : undefined;
    if (!option) return false;
    this.place.ui({ type: 'ui_event', event: 'option_select', value: option.id, selected_id: option.id });
    return true;
  }

  /** A key on the kiosk's page: Escape stops the voice, the arrows move as Tab does, a digit chooses an option. */
  key(e: KeyboardEvent): void {
    this.guide.key();
    const target = e.target instanceof Element ? e.target : null;
    const typing = target !== null && typingIn(target);
    if (!typing || e.key === 'Tab' || e.key === 'Enter' || e.key === 'Escape') this.place.stirred();
    if (e.key === 'Escape') return this.stop();
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
    if (/^[1-9]$/.test(e.key) && !typing) {
      if (this.chooseOption(Number(e.key))) e.preventDefault();
      return;
    }
    const move = MOVES[e.key];
    if (move === undefined || (typing && (e.key === 'ArrowLeft' || e.key === 'ArrowRight')) || (target && ownsArrows(target))) return;
    e.preventDefault();
    const rtl = target?.closest('[dir]')?.getAttribute('dir') === 'rtl' && (e.key === 'ArrowLeft' || e.key === 'ArrowRight');
    moveFocus(target, rtl ? (-move as 1 | -1) : move);
  }

  /** The focus moved: with guidance on, where a key moved it to is said. */
  focused(e: FocusEvent): void {
    if (e.target instanceof Element) this.guide.focused(e.target);
  }

  /** A visit taken up after a reload: the choices kept with it (none kept: the defaults). */
  resume(choices: KeptChoices | undefined): void {
    if (choices) this.access.restore(choices);
    this.place.voice.setVolume(this.access.gain);
  }

  /** Back to how every visit starts, for the next visitor. */
  reset(): void {
    this.guide.clear();
    this.access.reset();
    this.place.voice.setVolume(this.access.gain);
  }

  private words(key: MessageKey, values?: Record<string, string | number>): string {
    return get(t)(key, values);
  }
}

/** Keys typed here are text: a digit is a digit, Left and Right move the caret. */
function typingIn(el: Element): boolean {
  if (el instanceof HTMLInputElement) return !['button', 'checkbox', 'radio', 'submit', 'reset'].includes(el.type);
  return el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement || (el instanceof HTMLElement && el.isContentEditable);
}

/** Controls whose arrows change their value: a list, a date, a number. */
function ownsArrows(el: Element): boolean {
  return el instanceof HTMLSelectElement || (el instanceof HTMLInputElement && ['date', 'number', 'range', 'time', 'month', 'week', 'datetime-local'].includes(el.type));
}

/** Moves the focus to the next (1) or previous (-1) control, round the open dialog or list if there is one, else the kiosk's screen. */
function moveFocus(from: Element | null, step: 1 | -1): void {
  const page = globalThis.document;
  const scope = page.querySelector('[aria-modal="true"]') ?? page.querySelector(':popover-open') ?? page.querySelector('.kiosk');
  if (!scope) return;
  const controls = [...scope.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => !(el as HTMLButtonElement).disabled && el.checkVisibility());
  if (controls.length === 0) return;
  const at = from ? controls.findIndex((c) => c === from || c.contains(from)) : -1;
  let next: number;
  if (at >= 0) next = (at + step + controls.length) % controls.length;
  else {
    // From a heading or the page: the first control after it, or the last before it.
    const follows = (c: Element) => from !== null && (from.compareDocumentPosition(c) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0;
    const first = controls.findIndex(follows);
    next = step === 1 ? Math.max(0, first) : (first <= 0 ? controls.length : first) - 1;
  }
  controls[next]!.focus();
}
