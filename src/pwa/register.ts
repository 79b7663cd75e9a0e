// The page's side of the service worker: registers it through workbox-window, looks for a new
// version at load, every half hour and when the network comes back, and hands what it sees to the
// UpdateGate (updates.ts), which decides when the new version may take over. Nothing here
// reloads by itself.

import { Workbox } from 'workbox-window';
import { browserTimers } from '../ports/timers.ts';
import { UpdateGate, type UpdateState } from './updates.ts';

/** How often a kiosk left running asks its server for a new version. */
export const UPDATE_CHECK_MS = 30 * 60 * 1000;

export interface KioskUpdates {
  readonly gate: UpdateGate;
  /** asks the server for a new version now */
  check(): Promise<void>;
  /** the kiosk's screen changed: a waiting update may go ahead if it is now quiet */
  settle(): void;
}

export interface UpdateOptions {
  /** true when no visitor is using the kiosk */
  isQuiet: () => boolean;
  /** told of every change of the update's state */
  changed?: (state: UpdateState) => void;
  /** how often to look for a new version (UPDATE_CHECK_MS) */
  checkEveryMs?: number;
}

/** Registers the kiosk's service worker; null where the browser has none (or outside a secure context). */
export function startUpdates(options: UpdateOptions): KioskUpdates | null {
  if (!('serviceWorker' in navigator)) return null;
  const container = navigator.serviceWorker;
  const wb = new Workbox('/sw.js', { scope: '/' });
  const gate = new UpdateGate(
    {
      isQuiet: options.isQuiet,
      activate: () => wb.messageSkipWaiting(),
      reload: () => location.reload(),
      changed: (state) => {
        if (state === 'waiting') console.info('kiosk: a new version is ready; it starts on the idle screen');
        options.changed?.(state);
      },
    },
    browserTimers,
  );

  let registration: ServiceWorkerRegistration | undefined;
  /** A version installed while another one runs the page: an update, waiting. */
  const lookForWaiting = () => {
    if (registration?.waiting && registration.active) gate.found();
  };
  const check = async () => {
    if (!registration) return;
    try {
      await registration.update();
    } catch (error) {
      // Offline, or the server is down: the next check will do.
      console.info(`kiosk: could not look for a new version (${(error as Error).message})`);
    }
    lookForWaiting();
  };

  // The first install takes the page with nothing to reload; a later change of controller
  // means a newer version now serves this page.
  let controller = container.controller;
  container.addEventListener('controllerchange', () => {
    const before = controller;
    controller = container.controller;
    if (before) gate.tookOver();
  });

  void wb
    .register()
    .then((reg) => {
      if (!reg) return;
      registration = reg;
      reg.addEventListener('updatefound', () => {
        const worker = reg.installing;
        worker?.addEventListener('statechange', () => {
          if (worker.state === 'installed') lookForWaiting();
        });
      });
      lookForWaiting();
      // The browser also checks on each load of a page it controls; this covers the first one.
      if (reg.active) void check();
      setInterval(() => void check(), options.checkEveryMs ?? UPDATE_CHECK_MS);
      addEventListener('online', () => void check());
    })
    .catch((error: unknown) => console.warn(`kiosk: the service worker did not register (${(error as Error).message}); no offline use`))
    .finally(() => {
      if (!registration) workerless();
    });

  return { gate, check, settle: () => gate.settle() };
}

/** Told when the service worker did not register: nothing will take control of the page. */
let workerless: () => void = () => undefined;
const noWorker = new Promise<false>((resolve) => (workerless = () => resolve(false)));

/**
 * Resolves true once a service worker controls the page, false after `timeoutMs`, as soon as the
 * worker fails to register, or at once where there is none. A big first download waited on this
 * (the voice detector's 16 MB) comes from the worker's cache instead of being fetched twice, once
 * by the page and once by the worker.
 */
export function whenControlled(timeoutMs = 15_000): Promise<boolean> {
  if (!('serviceWorker' in navigator) || !import.meta.env.PROD) return Promise.resolve(false);
  const container = navigator.serviceWorker;
  if (container.controller) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (controlled: boolean) => {
      clearTimeout(timer);
      container.removeEventListener('controllerchange', onChange);
      resolve(controlled);
    };
    const onChange = () => done(true);
    const timer = setTimeout(() => done(false), timeoutMs);
    container.addEventListener('controllerchange', onChange);
    void noWorker.then(done);
  });
}
