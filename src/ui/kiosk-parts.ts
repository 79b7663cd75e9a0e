// What a kiosk is built from: its settings and the ports it works through. The composition root
// (App.svelte) gives the real ones: the flow files, the configured model or the offline
// assistant, the kiosk server's action runner, browser timers and the kept visit store.

import type { LoadedFlow } from '../engine/language/loaded-flow.ts';
import type { FlowEngine } from '../engine/runtime/engine.ts';
import type { ActionRunner, OutcomeSink } from '../ports/action-runner.ts';
import type { Clock } from '../ports/clock.ts';
import type { FlowSource } from '../ports/flow-source.ts';
import type { LanguageModel } from '../ports/language-model.ts';
import type { Timers } from '../ports/timers.ts';
import type { VisitStore } from '../pwa/visit-store.ts';
import type { MarkFn, VoiceParts } from './kiosk-voice.svelte.ts';
import type { KioskSettings } from './kiosk-settings.ts';
import type { AccessDefaults } from './access-levels.ts';

/** What the kiosk is built from: the composition root (App.svelte) gives the real ones, tests their own. */
export interface KioskParts {
  settings: KioskSettings;
  /** where the flow the page's address names comes from */
  flows: FlowSource;
  /** a fresh language model for one visit */
  model: () => LanguageModel;
  /** the offline assistant, taking over when `model` fails (the same one when it is the model) */
  fallback: (model: LanguageModel) => LanguageModel;
  /** who performs the flow's actions and counts their outcomes: the kiosk's server */
  actionRunner: ActionRunner & OutcomeSink;
  clock?: Clock;
  timers?: Timers;
  /**
   * the voice of one visit, in the visit's language (`home`: the flow's default language); null:
   * touch and typing only
   */
  voiceParts?: (language: string, home: boolean) => VoiceParts | null;
  /** the language the voice listens and speaks in for a visit in `language` (the operator may refine it) */
  spokenLanguage?: (language: string, home: boolean) => string;
  /** true when a language model is configured */
  hasModel?: () => boolean;
  mark?: MarkFn;
  /** where the visit in progress is kept for a reload; null: nowhere */
  visits?: VisitStore | null;
  /** the volume and the controls' place each visit starts with (the operator's); default: DEFAULT_VOLUME, standard */
  access?: AccessDefaults;
  /** makes a visit's engine (the flow studio's preview watches its inputs); default: a new FlowEngine */
  engine?: (loaded: LoadedFlow, clock: Clock) => FlowEngine;
}
