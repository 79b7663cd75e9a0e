// Entry point of the studio's preview (/studio/preview.html): the kiosk itself, the same App, run
// inside the flow studio's page on the flow being edited, which the studio sends once this page
// says it is ready. Its parts differ from the kiosk page's only where the studio decides: the
// flow, the actions' answers, the engine (watched, see watched-engine.ts), the built-in assistant
// if the studio chose it, and nothing kept on the device. It tells the studio what the kiosk shows.

import { mount } from 'svelte';
import App from '../../ui/App.svelte';
import type { Kiosk } from '../../ui/kiosk.svelte.ts';
import '../../ui/kiosk.css';
import '../../ui/access.css';
import { OfflineAgent } from '../../adapters/offline-agent/offline-agent.ts';
import { dayOf } from '../../engine/language/dates.ts';
import { loadFlow } from '../../engine/language/load-flow.ts';
import { startingAt } from '../../engine/language/start-at.ts';
import type { FlowSource } from '../../ports/flow-source.ts';
import { fromStudio, type FromPreview, type PreviewRun } from '../preview-link.ts';
import { CannedActions } from './canned-actions.ts';
import { WatchedEngine } from './watched-engine.ts';

const studio = window.parent;
const tell = (message: FromPreview) => studio.postMessage(message, location.origin);

/** Tells the studio each change of what the kiosk shows: its phase and the flow's state (the attributes the tests read too). */
function watchScreen(): void {
  const shown = { phase: '', state: '' };
  const look = () => {
    const page = document.querySelector<HTMLElement>('.kiosk');
    const phase = page?.dataset['phase'] ?? '';
    const state = page?.dataset['flowState'] ?? '';
    if (phase === shown.phase && state === shown.state) return;
    Object.assign(shown, { phase, state });
    tell({ kind: 'screen', phase, state });
  };
  new MutationObserver(look).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['data-phase', 'data-flow-state'], childList: true });
}

/** Once the kiosk has the flow (its idle screen), a chosen start or language starts the visit at once. */
function startWhenIdle(kiosk: Kiosk, run: PreviewRun): void {
  if (!run.start && !run.language) return;
  const ready = new MutationObserver(() => {
    if (document.querySelector('.kiosk')?.getAttribute('data-phase') !== 'idle') return;
    ready.disconnect();
    kiosk.start(run.language);
  });
  ready.observe(document.body, { subtree: true, attributes: true, attributeFilter: ['data-phase'], childList: true });
}

function run(run: PreviewRun): void {
  const result = loadFlow(run.text, run.source);
  if (!result.loaded) return tell({ kind: 'refused', problem: result.diagnostics.find((d) => d.severity === 'error')?.message ?? 'the flow has errors' });
  const loaded = run.start ? startingAt(result.loaded, run.start.state, run.start.values) : result.loaded;
  if ('problem' in loaded) return tell({ kind: 'refused', problem: loaded.problem });
  const flows: FlowSource = { load: () => Promise.resolve({ source: run.source, diagnostics: result.diagnostics, loaded }), bundledNames: () => [], defaultName: run.source };
  watchScreen();
  mount(App, {
    target: document.getElementById('app')!,
    props: {
      preview: {
        search: '',
        flows,
        actionRunner: new CannedActions(run.answers),
        engine: (visitFlow, clock) => {
          const at = clock.now();
          tell({ kind: 'visit', at, today: dayOf(at), state: visitFlow.flow.initial, startedAt: run.start?.state ?? null });
          return new WatchedEngine(visitFlow, clock, (record) => tell({ kind: 'input', record }));
        },
        ...(run.assistant === 'built-in' ? { model: () => new OfflineAgent() } : {}),
        ready: (kiosk) => startWhenIdle(kiosk, run),
      },
    },
  });
}

if (studio === window) {
  document.getElementById('app')!.textContent = 'This is the flow studio\'s preview of the kiosk: open the studio at /studio/.';
} else {
  let started = false;
  addEventListener('message', (event: MessageEvent) => {
    if (event.origin !== location.origin || event.source !== studio || started) return;
    const message = fromStudio(event.data);
    if (!message) return;
    started = true;
    run(message.run);
  });
  tell({ kind: 'ready' });
}
