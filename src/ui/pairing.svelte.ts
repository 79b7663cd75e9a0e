// The pairing screen as the page sees it: up when the kiosk's server refuses this device (never
// paired, or revoked), taking the code staff type, and saying what the server made of it. Once
// paired, the kiosk starts again from its idle screen (a reload), now with its credential.

import { words, type Words } from './i18n/words.ts';
import type { PairAnswer, PairingNeed } from './pairing-access.ts';

/** What the screen needs from the page (the server's route and a reload in the app; fakes in tests). */
export interface PairingHooks {
  pair(code: string): Promise<PairAnswer>;
  /** the device is paired: start the kiosk again */
  paired(): void;
  /** the visit in progress, if any, is wiped: a device the server refuses serves no one */
  stopVisit(): void;
}

export class PairingState {
  /** why the server refuses this device; null while it does not (no screen) */
  need = $state<PairingNeed | null>(null);
  busy = $state(false);
  /** what the last code came to, for staff */
  message = $state<Words | null>(null);
  /** the field takes nothing while the server's lock on wrong codes lasts */
  locked = $state(false);
  /** the name the server paired this device as, once it has */
  device = $state<string | null>(null);
  private unlockTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly hooks: PairingHooks) {}

  /** The server refused a request of this device for `need`: the screen comes up (over any visit, which is wiped). */
  refused(need: PairingNeed): void {
    if (this.device !== null) return;
    if (this.need === null) this.hooks.stopVisit();
    this.need = need;
  }

  /** The code typed on the screen, sent for the server to check. */
  async submit(typed: string): Promise<void> {
    if (this.busy || this.locked || this.device !== null) return;
    if (!typed.trim()) {
      this.message = words('pairing.empty');
      return;
    }
    this.busy = true;
    const answer = await this.hooks.pair(typed.trim()).finally(() => (this.busy = false));
    if (answer.ok) {
      this.message = null;
      this.device = answer.device;
      this.hooks.paired();
      return;
    }
    this.message = messageFor(answer);
    if (answer.reason === 'locked') this.lockFor(answer.retryAfterSeconds);
  }

  private lockFor(seconds: number): void {
    this.locked = true;
    clearTimeout(this.unlockTimer);
    this.unlockTimer = setTimeout(() => {
      this.locked = false;
      this.message = null;
    }, seconds * 1000);
  }
}

/** What staff are told of a code that did not pair. */
function messageFor(answer: Exclude<PairAnswer, { ok: true }>): Words {
  switch (answer.reason) {
    case 'wrong_code':
      return words('pairing.wrongCode', { tries: answer.triesLeft });
    case 'code_used':
      return words('pairing.codeUsed', { tries: answer.triesLeft });
    case 'code_expired':
      return words('pairing.codeExpired', { tries: answer.triesLeft });
    case 'locked':
      return answer.retryAfterSeconds >= 90 ? words('pairing.lockedMinutes', { minutes: Math.ceil(answer.retryAfterSeconds / 60) }) : words('pairing.lockedSeconds', { seconds: answer.retryAfterSeconds });
    case 'invalid_code':
      return words('pairing.invalidCode');
    case 'name_taken':
      return words('pairing.nameTaken');
    case 'unreachable':
      return words('pairing.serverAway');
  }
}
