// The paired devices in the operator panel, once the PIN has opened it (the server then holds a
// session for it, server/operator-devices.ts): the list with when each was last seen, a code for
// a new device, and revoking one.

import { words, type Words } from './i18n/words.ts';

/** A paired device as the panel shows it (ms since 1970). */
export interface DeviceRow {
  name: string;
  pairedAt: number;
  lastSeen: number;
}

/** A code the operator made here, shown until the panel closes. */
export interface MadeCode {
  name: string;
  code: string;
  expiresAt: number;
}

/** What the server said; `problem` when it said no (or nothing). */
type Answer<T> = { ok: true; value: T } | { ok: false; problem: Words };

/** The server's routes for the panel (the page's own in the app; fakes in tests). */
export interface DeviceHooks {
  list(): Promise<Answer<{ devices: DeviceRow[]; codes: { name: string; expiresAt: number }[] }>>;
  make(name: string): Promise<Answer<MadeCode>>;
  revoke(name: string): Promise<Answer<string>>;
}

export class PairedDevices {
  devices = $state<DeviceRow[]>([]);
  /** codes made (here or elsewhere) and not yet used */
  waiting = $state<{ name: string; expiresAt: number }[]>([]);
  /** the code made here last, to read out to whoever is at the device */
  made = $state<MadeCode | null>(null);
  /** the device name typed for a new code */
  name = $state('');
  /** why the last step was not done */
  message = $state<Words | null>(null);
  /** what the last step did, when it needs saying */
  done = $state<Words | null>(null);
  busy = $state(false);

  constructor(private readonly hooks: DeviceHooks) {}

  /** Reads the list again. */
  async load(): Promise<void> {
    const answer = await this.hooks.list();
    if (!answer.ok) {
      this.message = answer.problem;
      return;
    }
    this.devices = answer.value.devices;
    this.waiting = answer.value.codes;
  }

  /** A code for the device named in `name`. */
  async make(): Promise<void> {
    if (this.busy) return;
    const name = this.name.trim();
    if (!name || name.length > 60) {
      this.message = words('devices.badName');
      return;
    }
    this.busy = true;
    try {
      const answer = await this.hooks.make(name);
      if (!answer.ok) {
        this.message = answer.problem;
        return;
      }
      this.made = answer.value;
      this.message = null;
      this.done = null;
      this.name = '';
      await this.load();
    } finally {
      this.busy = false;
    }
  }

  async revoke(name: string): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      const answer = await this.hooks.revoke(name);
      this.done = answer.ok ? words('devices.revoked', { name: answer.value }) : null;
      this.message = answer.ok ? null : answer.problem;
      await this.load();
    } finally {
      this.busy = false;
    }
  }
}

/** The page's own hooks: the server's /api/operator/devices routes. */
export function pageDeviceHooks(fetcher: typeof fetch = (...args) => fetch(...args)): DeviceHooks {
  const ask = async (path: string, name?: string): Promise<{ status: number; body: Record<string, unknown> } | null> => {
    try {
      const init: RequestInit = name === undefined ? { headers: { accept: 'application/json' } } : { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify({ name }) };
      const response = await fetcher(path, init);
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    } catch {
      return null;
    }
  };
  /** Why the server said no to a step for `name`, in the panel's words. */
  const problem = (answer: { status: number; body: Record<string, unknown> } | null, name = ''): Words => {
    if (answer === null || answer.status >= 500) return words('devices.serverAway');
    if (answer.body['error'] === 'operator_locked') return words('devices.locked');
    if (answer.body['error'] === 'name_taken') return words('devices.nameTaken', { name });
    if (answer.body['error'] === 'unknown_device') return words('devices.unknown', { name });
    return words('devices.badName');
  };
  return {
    async list() {
      const answer = await ask('/api/operator/devices');
      if (answer?.status !== 200) return { ok: false, problem: problem(answer) };
      const devices = (answer.body['devices'] as { name: string; paired_at: string; last_seen: string }[]).map((d) => ({ name: d.name, pairedAt: Date.parse(d.paired_at), lastSeen: Date.parse(d.last_seen) }));
      const codes = (answer.body['codes'] as { name: string; expires_at: string }[]).map((c) => ({ name: c.name, expiresAt: Date.parse(c.expires_at) }));
      return { ok: true, value: { devices, codes } };
    },
    async make(name) {
      const answer = await ask('/api/operator/devices', name);
      if (answer?.status !== 201) return { ok: false, problem: problem(answer, name) };
      return { ok: true, value: { name: String(answer.body['name']), code: String(answer.body['code']), expiresAt: Date.parse(String(answer.body['expires_at'])) } };
    },
    async revoke(name) {
      const answer = await ask('/api/operator/devices/revoke', name);
      if (answer?.status !== 200) return { ok: false, problem: problem(answer, name) };
      return { ok: true, value: String(answer.body['name']) };
    },
  };
}

/** Ends the panel's session on the server (it closed); nothing waits for it. */
export function lockPanel(fetcher: typeof fetch = (...args) => fetch(...args)): void {
  void fetcher('/api/operator/lock', { method: 'POST' }).catch(() => undefined);
}
