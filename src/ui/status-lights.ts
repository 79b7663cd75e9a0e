// The operator's status lights: microphone, network, speech recognition, model and the kiosk's
// voice, each green (working), amber (working with a stand-in, or not known yet) or red (not
// working), with what it means as catalog words (ui/i18n), said in the kiosk's language. A pure function of what the kiosk already knows: the
// server's configuration, whether it answered, the browser's network state and microphone
// permission (device-watch.svelte.ts) and the last visit's voice problems.

import type { ServiceConfig } from '../ports/services.ts';
import type { VoiceStatus } from './kiosk-voice.svelte.ts';
import { words, type MessageKey, type Translate, type Words } from './i18n/words.ts';

export type Light = 'green' | 'amber' | 'red';

export type LightName = 'microphone' | 'network' | 'stt' | 'model' | 'speech';

export interface StatusLight {
  name: LightName;
  light: Light;
  /** what the light means ("offline"), as catalog words */
  state: Words;
}

/** The browser's microphone permission, as far as the Permissions API tells. */
export type MicPermission = 'granted' | 'denied' | 'prompt' | 'unknown';

/** Everything the lights are worked out from. */
export interface LightInputs {
  online: boolean;
  /** the kiosk's server answered for its configuration (null: not asked yet) */
  reachable: boolean | null;
  config: ServiceConfig;
  /** the browser has its own speech recognition, and its own voice (at least one: a browser with
   *  speech synthesis and no voices speaks in captions only) */
  browserRecognition: boolean;
  browserVoice: boolean;
  micPermission: MicPermission;
  microphoneFault: 'denied' | 'missing' | 'silent' | 'broken' | null;
  recognitionFault: boolean;
  voiceStatus: VoiceStatus;
}

const LISTENING: ReadonlySet<VoiceStatus> = new Set(['listening', 'hearing', 'thinking', 'speaking']);

const light = (name: LightName, state: Light, key: MessageKey, values?: Record<string, string>): StatusLight => ({ name, light: state, state: words(key, values) });

/** The five lights, in the order they are shown. */
export function statusLights(i: LightInputs): StatusLight[] {
  const away = !i.online || i.reachable === false;
  const stt = i.config.stt && { model: i.config.stt.model };
  const llm = i.config.llm && { model: i.config.llm.model };
  const tts = i.config.tts && { model: i.config.tts.model, voice: i.config.tts.voice };
  return [
    microphone(i),
    !i.online
      ? light('network', 'red', 'lights.network.offline')
      : i.reachable === false
        ? light('network', 'amber', 'lights.network.serverAway')
        : light('network', 'green', 'lights.network.online'),
    stt
      ? away
        ? light('stt', 'red', 'lights.stt.away', stt)
        : i.recognitionFault
          ? light('stt', 'red', 'lights.stt.failing', stt)
          : light('stt', 'green', 'lights.stt.working', stt)
      : i.browserRecognition && !away
        ? i.recognitionFault
          ? light('stt', 'red', 'lights.stt.browserFailing')
          : light('stt', 'amber', 'lights.stt.browser')
        : light('stt', 'red', away ? 'lights.stt.noneAway' : 'lights.stt.none'),
    llm
      ? away
        ? light('model', 'amber', 'lights.model.away', llm)
        : light('model', 'green', 'lights.model.working', llm)
      : light('model', 'amber', away ? 'lights.model.builtInAway' : 'lights.model.builtIn'),
    tts && !away
      ? light('speech', 'green', 'lights.speech.working', tts)
      : i.browserVoice
        ? tts
          ? light('speech', 'amber', 'lights.speech.browserStandsIn', tts)
          : light('speech', 'amber', 'lights.speech.browser')
        : light('speech', 'red', 'lights.speech.none'),
  ];
}

function microphone(i: LightInputs): StatusLight {
  if (i.microphoneFault === 'denied' || i.micPermission === 'denied') return light('microphone', 'red', 'lights.microphone.blocked');
  if (i.microphoneFault === 'missing') return light('microphone', 'red', 'lights.microphone.missing');
  if (i.microphoneFault === 'silent') return light('microphone', 'red', 'lights.microphone.silent');
  if (i.microphoneFault === 'broken') return light('microphone', 'red', 'lights.microphone.broken');
  if (LISTENING.has(i.voiceStatus)) return light('microphone', 'green', 'lights.microphone.open');
  if (!i.config.stt && !i.browserRecognition) return light('microphone', 'amber', 'lights.microphone.unused');
  if (i.micPermission === 'granted') return light('microphone', 'green', 'lights.microphone.allowed');
  return light('microphone', 'amber', 'lights.microphone.notYet');
}

/** A light in a sentence ("Network: offline"), for the tooltip and screen readers. */
export function lightLine(l: StatusLight, say: Translate): string {
  return say('lights.line', { name: say(`lights.name.${l.name}`), state: say(l.state.key, l.state.values) });
}
