// Entry point of the flow studio (/studio/): mounts it, in the browser's language where the
// studio has its words, and lets the service worker keep it for offline use (the kiosk's worker,
// which precaches the studio's pages and code too).

import { mount } from 'svelte';
import { Workbox } from 'workbox-window';
import { useStudioLanguage } from './i18n/i18n.ts';
import Studio from './Studio.svelte';
import './studio.css';

useStudioLanguage(navigator.language);
mount(Studio, { target: document.getElementById('studio')! });

if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  // The studio takes a new version when it is next opened; it never reloads under the author.
  new Workbox('/sw.js', { scope: '/' }).register().catch((error: unknown) => console.warn(`studio: no offline use (${(error as Error).message})`));
}
