// The browser's side of the status lights: whether it is online, and whether the page may use
// the microphone, both kept current as they change.

import type { MicPermission } from './status-lights.ts';

/** The browser's side of the lights: the network state and the microphone permission, kept current. */
export class DeviceWatch {
  online = $state(true);
  micPermission = $state<MicPermission>('unknown');

  constructor() {
    if (typeof window === 'undefined') return;
    this.online = navigator.onLine;
    addEventListener('online', () => (this.online = true));
    addEventListener('offline', () => (this.online = false));
    void navigator.permissions
      ?.query({ name: 'microphone' as PermissionName })
      .then((status) => {
        this.micPermission = status.state;
        status.addEventListener('change', () => (this.micPermission = status.state));
      })
      .catch(() => undefined); // a browser that will not say: 'unknown'
  }
}
