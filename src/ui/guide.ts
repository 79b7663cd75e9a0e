// Audio guidance: with it on, the kiosk says everything a sighted visitor reads on the screen
// (screen-reading.ts) as it comes (a new step whole, then each value, notice and card as it
// appears) and where the keys move to. Whether it is on or not, every time limit the visitor meets
// is said when it is shown. What is said is read from the page once Svelte has drawn it.

import { tick } from 'svelte';
import { get } from 'svelte/store';
import type { EngineMessage } from '../engine/runtime/messages.ts';
import { t } from './i18n/i18n.ts';
import type { KioskVoice } from './kiosk-voice.svelte.ts';
import { describeFocus, readAloud } from './screen-reading.ts';

/** The parts of the screen a new screen is read from, in the page's order (the top bar and the access controls are not). */
export const READ_REGIONS = '[data-read]';

/** How soon after a key press a focus change counts as the key's, and is said. */
const KEY_FOCUS_MS = 1000;

/** What the next reading says: the whole screen, or parts of it; `limits` are said with guidance off too. */
interface Wanted {
  screen: boolean;
  parts: Set<string>;
  limits: Set<string>;
}

export class Guide {
  private wanted: Wanted = { screen: false, parts: new Set(), limits: new Set() };
  private reading: Promise<void> | null = null;
  private keyAt = -Infinity;

  constructor(
    private readonly voice: KioskVoice,
    /** audio guidance is on */
    private readonly isOn: () => boolean,
  ) {}

  /** Audio guidance was turned on: how it works, then the screen as it stands. */
  begin(): void {
    this.voice.announce(get(t)('guide.on'));
    this.screen();
  }

  /** Audio guidance was turned off: said once, in the voice it was on in. */
  end(): void {
    this.clear();
    this.voice.echo(get(t)('guide.off'));
  }

  /** A new screen: read it whole (and the keys start from its heading). */
  screen(): void {
    if (!this.isOn()) return;
    this.wanted.screen = true;
    this.schedule();
  }

  /** Parts of the screen that changed, by selector (a field, a notice, a card). */
  part(selector: string): void {
    if (!this.isOn()) return;
    this.wanted.parts.add(selector);
    this.schedule();
  }

  /** A time limit on screen (a warning, a countdown, "Are you still there?"): said with guidance off too. */
  limit(selector: string): void {
    this.wanted.limits.add(selector);
    this.schedule();
  }

  /** What the engine's messages change on screen, read once it is drawn. */
  afterEngine(messages: readonly EngineMessage[]): void {
    for (const m of messages) {
      if (m.type === 'flow_state') this.screen();
      else if (m.type === 'flow_variable') this.part(`[data-field="${CSS.escape(m.name)}"]`);
      else if (m.type === 'transition_blocked' || (m.type === 'action_result' && m.status === 'failed')) this.part('.notice');
      else if (m.type === 'action_pending') this.part('.pending-action');
      else if (m.type === 'action_run') this.part('.action-running');
    }
  }

  /** A key was pressed: the focus change it makes is said. */
  key(): void {
    this.keyAt = performance.now();
  }

  /** The focus moved to `el`: said when audio guidance is on and a key moved it (a tap needs no telling, nor the kiosk's own moves). */
  focused(el: Element): void {
    if (!this.isOn() || performance.now() - this.keyAt > KEY_FOCUS_MS) return;
    this.voice.echo(describeFocus(el, get(t)));
  }

  /** Nothing more to read (the visit is over). */
  clear(): void {
    this.wanted = { screen: false, parts: new Set(), limits: new Set() };
  }

  /**
   * Reads once what was asked for so far, when Svelte has drawn it: after the change that asked
   * (a message, the life machine's entry action) and whatever it sets off (the machine's view
   * reaching the screens) have been drawn, two flushes later. No frame is awaited: a page whose
   * clock is held (a test) draws none.
   */
  private schedule(): void {
    this.reading ??= tick()
      .then(() => tick())
      .then(() => {
        this.reading = null;
        this.read();
      });
  }

  private read(): void {
    const { screen, parts, limits } = this.wanted;
    this.clear();
    const page = globalThis.document;
    if (!page) return;
    const translate = get(t);
    const lines: string[] = [];
    const say = (selector: string) => {
      for (const el of page.querySelectorAll(selector)) if (!typingIn(el, page)) lines.push(...readAloud(el, translate));
    };
    if (screen && this.isOn()) {
      say(READ_REGIONS);
      this.startKeysAtHeading(page);
    } else if (this.isOn()) for (const selector of parts) say(selector);
    // A limit inside what was just read whole has been said with it.
    for (const selector of limits) if (!(screen && this.isOn() && page.querySelector(selector)?.closest(READ_REGIONS))) say(selector);
    const text = lines.filter((line, i) => line !== lines[i - 1]).join('\n');
    if (text) this.voice.announce(text);
  }

  /** After a new screen, Tab goes on from its heading (focused quietly: it is being read out). */
  private startKeysAtHeading(page: Document): void {
    const heading = page.querySelector<HTMLElement>(`${READ_REGIONS} h1, ${READ_REGIONS} h2`) ?? page.querySelector<HTMLElement>(READ_REGIONS);
    if (!heading || heading.contains(page.activeElement)) return;
    if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
    // The kiosk moves it, not a key (the Enter that started the step may have been a moment ago).
    this.keyAt = -Infinity;
    heading.focus({ preventScroll: true });
  }
}

/** A field the visitor is typing into: what they type needs no reading back while they are at it. */
function typingIn(el: Element, page: Document): boolean {
  const active = page.activeElement;
  return el.matches('[data-field]') && active !== null && el.contains(active) && active.matches('input, select, textarea');
}
