// The operator panel as the screen sees it: opened by holding a corner of the idle screen, then
// the PIN (checked by the server), then the device's settings (kept in localStorage and applied
// with a reload), a test of each service the server has, full screen, and the paired devices
// (operator-devices.svelte.ts). It closes by itself when left open and untouched, so a visitor
// never finds it; closing ends the session the PIN opened on the server.

import { words, type Said, type Words } from './i18n/words.ts';
import { checkSetting, effectiveSearch, readDeviceSettings, SETTING_NAMES, writeDeviceSettings, type DeviceSettings, type SettingName } from './device-settings.ts';
import { operatorStatus, lockedWords, unlockOperator, type OperatorStatus, type UnlockAnswer } from './operator-access.ts';
import { addressProblems, type AddressProblem } from './kiosk-settings.ts';
import type { ServiceCheck } from './services.svelte.ts';
import type { FlowSource } from '../ports/flow-source.ts';
import { lockPanel, PairedDevices, pageDeviceHooks, type DeviceHooks } from './operator-devices.svelte.ts';

/**
 * - `closed`: nothing shown
 * - `asking`: the server is asked whether a PIN is set
 * - `refused`: no panel (no PIN set, or the server out of reach); `message` says which
 * - `pin`: the PIN pad
 * - `open`: the settings
 */
export type PanelStage = 'closed' | 'asking' | 'refused' | 'pin' | 'open';

export type ServiceName = 'llm' | 'stt' | 'tts';

/** What the panel needs from the rest of the kiosk (the page's own in the app; fakes in tests). */
export interface PanelHooks {
  status(): Promise<OperatorStatus>;
  unlock(pin: string): Promise<UnlockAnswer>;
  /** the test of one service; null when the server has none */
  check(service: ServiceName): Promise<ServiceCheck | null>;
  /** the kiosk's server has this service set up (only those get a Test button) */
  configured(service: ServiceName): boolean;
  /** applies saved settings (the page reloads) */
  apply(): void;
  /** the page's address query, whose settings win over the kept ones */
  address: string;
  /** where the kiosk's flows come from: a flow is tried before it is kept */
  flows: FlowSource;
  /** the server's paired devices, which the unlocked panel lists, pairs and revokes */
  devices: DeviceHooks;
  /** ends the session the PIN opened on the server (the panel closed) */
  lock(): void;
  /** how long the panel stays open untouched (default 2 minutes) */
  idleMs?: number;
}

export interface CheckState {
  running: boolean;
  ok: boolean | null;
  /** the server's result of the test (its own words), or the panel's */
  text: Said;
}

const IDLE_MS = 120_000;
/** How long "no operator PIN is set" stays on the idle screen. */
const REFUSAL_MS = 8_000;

export class OperatorPanel {
  stage = $state<PanelStage>('closed');
  /** a sentence for the operator: why there is no panel, what the PIN came to */
  message = $state<Words | null>(null);
  /** the PIN pad refuses input while the server's lock lasts */
  locked = $state(false);
  busy = $state(false);
  draft = $state<Record<SettingName, string>>(emptyDraft());
  errors = $state<Partial<Record<SettingName, Words>>>({});
  /** what saving came to, when it did not reload */
  saveError = $state<Words | null>(null);
  checks = $state<Partial<Record<ServiceName, CheckState>>>({});
  /** the paired devices, while the panel is open */
  devices = $state<PairedDevices | null>(null);
  /** the settings the page address sets: they win over the panel's */
  readonly fromAddress: SettingName[];
  /** where the kiosk's flows come from (the bundled ones' names, the default's) */
  readonly flows: FlowSource;
  /** the page address's settings the kiosk cannot use (left at their defaults) */
  private readonly unusable: readonly AddressProblem[];
  private closeTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly hooks: PanelHooks) {
    this.fromAddress = effectiveSearch(hooks.address, {}).fromAddress;
    this.flows = hooks.flows;
    this.unusable = addressProblems(hooks.address);
  }

  /** The kiosk's server has `service` set up, so it can be tested. */
  configured(service: ServiceName): boolean {
    return this.hooks.configured(service);
  }

  /** Why the page address's value of `name` is not used, or null when it is (or the address does not set it). */
  addressProblem(name: SettingName): Words | null {
    return this.unusable.find((p) => p.setting === name)?.words ?? null;
  }

  /** The corner was held long enough: asks the server whether there is a panel to open. */
  async open(): Promise<void> {
    if (this.stage !== 'closed') return;
    this.stage = 'asking';
    this.message = null;
    const status = await this.hooks.status();
    if (this.stage !== 'asking') return;
    if ('unreachable' in status) {
      console.warn(`kiosk: the operator panel needs the kiosk's server (${status.unreachable})`);
      return this.refuse(words('operator.serverAway'));
    }
    if (!status.pinSet) return this.refuse(words('operator.noPin'));
    this.stage = 'pin';
    this.locked = status.lockedForSeconds > 0;
    if (this.locked) this.message = lockedWords(status.lockedForSeconds);
    this.touch();
  }

  async submitPin(pin: string): Promise<void> {
    if (this.stage !== 'pin' || this.busy) return;
    this.touch();
    if (!/^\d{4,12}$/.test(pin)) {
      this.message = words('operator.pinShape');
      return;
    }
    this.busy = true;
    const answer = await this.hooks.unlock(pin).finally(() => (this.busy = false));
    if (this.stage !== 'pin') return;
    if (answer.ok) {
      this.message = null;
      this.draft = { ...emptyDraft(), ...readDeviceSettings(this.flows.bundledNames()) };
      this.errors = {};
      this.devices = new PairedDevices(this.hooks.devices);
      this.stage = 'open';
      return;
    }
    switch (answer.reason) {
      case 'wrong_pin':
        this.message = words('operator.wrongPin', { tries: answer.triesLeft });
        break;
      case 'locked':
        this.locked = true;
        this.message = lockedWords(answer.retryAfterSeconds);
        break;
      case 'no_pin':
        this.refuse(words('operator.noPin'));
        break;
      case 'unreachable':
        this.message = words('operator.pinServerAway');
        break;
    }
  }

  /** Checks every setting, tries the flow, keeps them and applies them; with a problem, keeps the panel open and says what. */
  async save(): Promise<void> {
    if (this.stage !== 'open' || this.busy) return;
    this.touch();
    const errors: Partial<Record<SettingName, Words>> = {};
    const bundled = this.flows.bundledNames();
    for (const name of SETTING_NAMES) {
      const problem = checkSetting(name, this.draft[name], bundled);
      if (problem) errors[name] = problem;
    }
    this.errors = errors;
    this.saveError = null;
    if (Object.keys(errors).length > 0) return;
    const settings: DeviceSettings = { ...this.draft };
    this.busy = true;
    try {
      const flow = this.draft.flow.trim();
      if (flow && !this.fromAddress.includes('flow')) {
        const tried = await this.flows.load(`?${new URLSearchParams({ flow })}`);
        if (!tried.loaded) {
          const first = tried.diagnostics.find((d) => d.severity === 'error');
          this.errors = { flow: first ? words('operator.problem.flowLoads', { why: first.message }) : words('operator.problem.flowHasErrors') };
          return;
        }
      }
      writeDeviceSettings(settings);
    } catch (error) {
      this.saveError = words('operator.notKept', { why: (error as Error).message });
      return;
    } finally {
      this.busy = false;
    }
    this.close();
    this.hooks.apply();
  }

  async test(service: ServiceName): Promise<void> {
    this.touch();
    if (this.checks[service]?.running) return;
    this.checks[service] = { running: true, ok: null, text: words('operator.testing') };
    let result: { ok: boolean; text: Said } | null;
    try {
      result = await this.hooks.check(service);
    } catch (error) {
      result = { ok: false, text: words('operator.notWorking', { why: (error as Error).message }) };
    }
    this.checks[service] = result ? { running: false, ok: result.ok, text: result.text } : { running: false, ok: null, text: words('operator.notConfigured') };
  }

  /** Asks the browser for full screen (this must run inside the operator's tap). */
  fullscreen(): void {
    this.touch();
    const root = document.documentElement;
    if (document.fullscreenElement) {
      void document.exitFullscreen().catch(() => undefined);
      return;
    }
    if (!root.requestFullscreen) {
      this.saveError = words('operator.noFullScreen');
      return;
    }
    root.requestFullscreen().catch((error: unknown) => {
      this.saveError = words('operator.fullScreenRefused', { why: (error as Error).message });
    });
  }

  /** Any tap or key in the panel: it stays open a while longer. */
  touch(): void {
    clearTimeout(this.closeTimer);
    if (this.stage === 'pin' || this.stage === 'open') {
      this.closeTimer = setTimeout(() => this.close(), this.hooks.idleMs ?? IDLE_MS);
    }
  }

  close(): void {
    clearTimeout(this.closeTimer);
    if (this.stage === 'open') this.hooks.lock();
    this.devices = null;
    this.stage = 'closed';
    this.message = null;
    this.locked = false;
    this.busy = false;
    this.errors = {};
    this.saveError = null;
    this.checks = {};
    this.draft = emptyDraft();
  }

  /** The value the page address gives `name`, which wins over the panel's; null when it gives none. */
  addressValue(name: SettingName): string | null {
    return new URLSearchParams(this.hooks.address).get(name);
  }

  /** No panel: the reason shows for a few seconds, then goes. */
  private refuse(message: Words): void {
    this.stage = 'refused';
    this.message = message;
    clearTimeout(this.closeTimer);
    this.closeTimer = setTimeout(() => this.close(), REFUSAL_MS);
  }
}

function emptyDraft(): Record<SettingName, string> {
  return Object.fromEntries(SETTING_NAMES.map((name) => [name, ''])) as Record<SettingName, string>;
}

/** The hooks of the real page: its server, its services, its flows, a reload. */
export function pageHooks(check: PanelHooks['check'], configured: PanelHooks['configured'], flows: FlowSource): PanelHooks {
  return {
    status: () => operatorStatus(),
    unlock: (pin) => unlockOperator(pin),
    check,
    configured,
    apply: () => location.reload(),
    address: location.search,
    flows,
    devices: pageDeviceHooks(),
    lock: () => lockPanel(),
  };
}
