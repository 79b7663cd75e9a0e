// What audio guidance says for a part of the screen, read from the page as drawn, so that it says
// whatever a sighted visitor reads there and nothing else: headings and texts in order, each
// field with its label, its value and whether it waits for a yes, the options with their numbers,
// a card's values, the pending action with how to answer it, notices, and the buttons. And what a
// control is when the keys move to it ("Full name, edit text, Maria Garcia"). Elements marked
// `data-unread` (the captions, already said; the answer box; the lights) are passed over.

import type { Translate } from './i18n/words.ts';
import { dateInWords } from '../engine/runtime/shown-values.ts';

/** The elements a line is made of; anything else inside one (a span, a label) runs on in the line. */
const BLOCKS = new Set(['P', 'DIV', 'SECTION', 'MAIN', 'ASIDE', 'HEADER', 'FOOTER', 'NAV', 'FORM', 'UL', 'OL', 'LI', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'DT', 'DD', 'FIELDSET']);

/** Not seen by a sighted visitor, or not to be read: hidden, aria-hidden, or marked data-unread. */
function passedOver(el: Element): boolean {
  if (el.getAttribute('aria-hidden') === 'true' || el.hasAttribute('hidden') || el.hasAttribute('data-unread')) return true;
  return typeof el.checkVisibility === 'function' && !el.checkVisibility();
}

/** An element's text as a sighted visitor sees it: without what is hidden, spaces collapsed. */
export function seenText(el: Element): string {
  const parts: string[] = [];
  const walk = (node: Node) => {
    for (const child of node.childNodes) {
      if (child.nodeType === 3) parts.push(child.textContent ?? '');
      else if (child instanceof Element && !passedOver(child)) walk(child);
    }
  };
  walk(el);
  return parts.join('').replace(/\s+/g, ' ').trim();
}

/** The page's language, for dates and lists. */
function pageLanguage(el: Element): string {
  return el.ownerDocument.documentElement.lang || 'en';
}

/** What a control holds, as said; '' when empty. */
export function controlValue(control: Element, t: Translate): string {
  if (control instanceof HTMLSelectElement) return control.value === '' ? '' : (control.selectedOptions[0]?.textContent?.trim() ?? '');
  if (control instanceof HTMLInputElement) {
    if (control.type === 'checkbox') return t(control.checked ? 'end.yes' : 'end.no');
    return control.type === 'date' ? dateInWords(control.value, pageLanguage(control)) : control.value.trim();
  }
  if (control instanceof HTMLTextAreaElement) return control.value.trim();
  return '';
}

/** The words that name an element, as assistive technology finds them: aria-label, aria-labelledby, its label, its text. */
export function accessibleName(el: Element): string {
  const label = el.getAttribute('aria-label');
  if (label) return label.trim();
  const doc = el.ownerDocument;
  const by = el.getAttribute('aria-labelledby');
  if (by) return by.split(/\s+/).map((id) => { const e = doc.getElementById(id); return e ? seenText(e) : ''; }).filter(Boolean).join(' ');
  if (el.id && (el instanceof HTMLInputElement || el instanceof HTMLSelectElement || el instanceof HTMLTextAreaElement)) {
    const forIt = doc.querySelector(`label[for="${CSS.escape(el.id)}"]`);
    if (forIt) return seenText(forIt);
  }
  return seenText(el);
}

/** The text of the elements that describe `el` (aria-describedby): a field's "Is this right?", its notice. */
function description(el: Element): string {
  const ids = el.getAttribute('aria-describedby');
  if (!ids) return '';
  return ids.split(/\s+/).map((id) => { const e = el.ownerDocument.getElementById(id); return e ? seenText(e) : ''; }).filter(Boolean).join(' ');
}

/** A line said as a sentence: it ends in a stop, so the voice pauses after it. */
function sentence(text: string): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  return !clean || /[.!?…:;。؟]["'”»)]*$/.test(clean) ? clean : `${clean}.`;
}

/** One form field: its label, its value and whether it waits for a yes; then its notice or anything else it shows. */
export function readField(block: Element, t: Translate): string[] {
  const control = block.querySelector('input, select, textarea');
  const labelEl = block.querySelector('label');
  const label = (labelEl ? seenText(labelEl) : control ? accessibleName(control) : '').replace(/[:\s]+$/, '');
  const value = control ? controlValue(control, t) : '';
  const status = block.getAttribute('data-status');
  const waiting = status === 'pending' && block.classList.contains('pending');
  const hint = control?.getAttribute('placeholder')?.trim();
  const empty = hint ? t('guide.emptyHint', { label, hint }) : t('guide.empty', { label });
  const line = value === '' ? empty : waiting ? t('guide.pending', { label, value }) : status === 'confirmed' ? t('guide.confirmed', { label, value }) : t('guide.value', { label, value });
  const rest = new Reader(t);
  // The label, the value, "Is this right?" and its buttons are all in the line above.
  rest.skip = (el) => el.matches('.field-head, .field-row, label.check, .pending-badge');
  rest.walk(block);
  return [line, ...rest.finish(false)];
}

/** The lines one part of the screen is read as. */
class Reader {
  lines: string[] = [];
  buttons: string[] = [];
  private buffer = '';
  /** the page's language, for the list of buttons */
  private language = 'en';
  skip: (el: Element) => boolean = () => false;

  constructor(private readonly t: Translate) {}

  read(root: Element): void {
    if (!passedOver(root)) this.element(root);
  }

  walk(node: Node): void {
    for (const child of node.childNodes) {
      if (child.nodeType === 3) this.text(child.textContent ?? '');
      else if (child instanceof Element && !passedOver(child) && !this.skip(child)) this.element(child);
    }
  }

  /** The lines, and the buttons last ("Buttons: Continue, Confirm all."). */
  finish(withButtons = true): string[] {
    this.flush();
    if (withButtons && this.buttons.length) this.lines.push(this.t('guide.buttons', { buttons: listed(this.buttons, this.language) }));
    return this.lines.filter(Boolean);
  }

  private element(el: Element): void {
    this.language = pageLanguage(el);
    if (el.matches('[data-field]')) return this.block(() => this.lines.push(...readField(el, this.t)));
    if (el.matches('.option-list')) return this.block(() => this.options(el));
    if (el.matches('.pending-action')) return this.block(() => this.decide(el));
    if (el.matches('dl')) return this.block(() => this.pairs(el));
    if (el instanceof HTMLButtonElement) return void this.buttons.push(accessibleName(el));
    if (el.matches('input, select, textarea')) return this.block(() => this.lines.push(sentence(`${accessibleName(el)}: ${controlValue(el, this.t) || this.t('focus.empty')}`)));
    if (el.tagName === 'BR') return this.flush();
    if (BLOCKS.has(el.tagName)) return this.block(() => this.walk(el));
    this.walk(el);
  }

  private block(read: () => void): void {
    this.flush();
    read();
    this.flush();
  }

  /** Text as it comes; a line break in a text shown with its breaks (a card's text) ends a line. */
  private text(text: string): void {
    const pieces = text.split('\n');
    pieces.forEach((piece, i) => {
      if (i > 0) this.flush();
      this.buffer += piece;
    });
  }

  private flush(): void {
    const line = sentence(this.buffer);
    this.buffer = '';
    if (line) this.lines.push(line);
  }

  /** "Say or press 1 for Appointment: I have a booked appointment." */
  private options(list: Element): void {
    [...list.querySelectorAll('button')].filter((b) => !passedOver(b)).forEach((b, i) => {
      const labelEl = b.querySelector('.option-label');
      const label = labelEl ? seenText(labelEl) : seenText(b);
      const described = b.querySelector('.option-description');
      const descriptionText = described ? seenText(described) : '';
      this.lines.push(descriptionText ? this.t('guide.optionWith', { number: i + 1, label, description: descriptionText }) : this.t('guide.option', { number: i + 1, label }));
    });
  }

  /** The pending action's card: what it is and how to answer it; its other buttons (Change) with the rest. */
  private decide(card: Element): void {
    const summary = card.querySelector('p');
    const buttons = [...card.querySelectorAll('button')].filter((b) => !passedOver(b));
    const [yes, no, ...others] = buttons.map(accessibleName);
    if (summary && yes && no && !card.querySelector('form')) {
      this.lines.push(this.t('guide.decide', { summary: seenText(summary), yes, no }));
      this.buttons.push(...others);
      return;
    }
    this.walk(card); // being changed: its fields, read as they stand
  }

  /** A list of values: "Full name: Maria Garcia." */
  private pairs(dl: Element): void {
    for (const term of dl.querySelectorAll('dt')) {
      let dd = term.nextElementSibling;
      while (dd && dd.tagName !== 'DD') dd = dd.nextElementSibling;
      if (!passedOver(term)) this.lines.push(sentence(`${seenText(term)}: ${dd ? seenText(dd) : ''}`));
    }
  }
}

/** "Continue, Confirm all and Back", in the page's language. */
function listed(items: readonly string[], language: string): string {
  try {
    return new Intl.ListFormat(language, { type: 'conjunction' }).format(items);
  } catch {
    return items.join(', ');
  }
}

/** Everything a sighted visitor reads in `root` (a region, a field, a card, a notice), as lines to say. */
export function readAloud(root: Element, t: Translate): string[] {
  const reader = new Reader(t);
  reader.read(root);
  return reader.finish();
}

/** What the control the keys moved to is: "Confirm Full name, button", "Full name, edit text, Maria Garcia, Is this right?". */
export function describeFocus(el: Element, t: Translate): string {
  const name = accessibleName(el);
  const parts: string[] = [];
  if (el instanceof HTMLButtonElement) {
    parts.push(name, t('focus.button'));
    const pressed = el.getAttribute('aria-pressed');
    if (pressed === 'true' || pressed === 'false') parts.push(t(pressed === 'true' ? 'focus.on' : 'focus.off'));
  } else if (el instanceof HTMLInputElement && el.type === 'checkbox') {
    parts.push(name, t('focus.checkbox'), t(el.checked ? 'focus.checked' : 'focus.unchecked'));
  } else if (el instanceof HTMLSelectElement) {
    parts.push(name, t('focus.list'), controlValue(el, t) || t('focus.empty'));
  } else if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) {
    parts.push(name, t('focus.textbox'), controlValue(el, t) || t('focus.empty'));
  } else {
    parts.push(name || seenText(el));
    if (el.getAttribute('role') === 'region' || el.tagName === 'SECTION') parts.push(t('focus.region'));
  }
  const described = description(el);
  if (described) parts.push(described);
  return parts.filter(Boolean).join(', ');
}
