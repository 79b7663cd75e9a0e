// The operator's status lights: microphone, network, speech recognition, model and the kiosk's
// voice, each green (working), amber (working with a stand-in, or not known yet) or red (not
// working), with words for screen readers. A pure function of what the kiosk already knows: the
// server's configuration, whether it answered, the browser's network state and microphone
// permission (device-watch.svelte.ts) and the last visit's voice problems.

import type { ServiceConfig } from '../ports/services.ts';
import type { VoiceStatus } from './kiosk-voice.svelte.ts';

export type Light = 'green' | 'amber' | 'red';

export type LightName = 'microphone' | 'network' | 'stt' | 'model' | 'speech';

export interface StatusLight {
  name: LightName;
  /** the short label shown beside the light */
  label: string;
  light: Light;
  /** what the light means, in a sentence ("Network: offline") */
  words: string;
}

/** The browser's microphone permission, as far as the Permissions API tells. */
export type MicPermission = 'granted' | 'denied' | 'prompt' | 'unknown';

/** Everything the lights are worked out from. */
export interface LightInputs {
  online: boolean;
  /** the kiosk's server answered for its configuration (null: not asked yet) */
  reachable: boolean | null;
  config: ServiceConfig;
  /** the browser has its own speech recognition, and its own voice */
  browserRecognition: boolean;
  browserVoice: boolean;
  micPermission: MicPermission;
  microphoneFault: 'denied' | 'missing' | 'broken' | null;
  recognitionFault: boolean;
  voiceStatus: VoiceStatus;
}

const LISTENING: ReadonlySet<VoiceStatus> = new Set(['listening', 'hearing', 'thinking', 'speaking']);

/** The five lights, in the order they are shown. */
export function statusLights(i: LightInputs): StatusLight[] {
  const away = !i.online || i.reachable === false;
  const light = (name: LightName, label: string, state: Light, words: string): StatusLight => ({ name, label, light: state, words: `${label}: ${words}` });
  return [
    microphone(i, light),
    !i.online
      ? light('network', 'Network', 'red', 'offline')
      : i.reachable === false
        ? light('network', 'Network', 'amber', "online, but the kiosk's server does not answer")
        : light('network', 'Network', 'green', 'online'),
    i.config.stt
      ? away
        ? light('stt', 'Speech recognition', 'red', `${i.config.stt.model} is out of reach; visitors tap or type`)
        : i.recognitionFault
          ? light('stt', 'Speech recognition', 'red', `${i.config.stt.model} is failing; visitors tap or type`)
          : light('stt', 'Speech recognition', 'green', i.config.stt.model)
      : i.browserRecognition && !away
        ? light('stt', 'Speech recognition', i.recognitionFault ? 'red' : 'amber', i.recognitionFault ? "the browser's own is failing" : "the browser's own (none on the server)")
        : light('stt', 'Speech recognition', 'red', away ? 'out of reach; visitors tap or type' : 'none; visitors tap or type'),
    i.config.llm
      ? away
        ? light('model', 'Model', 'amber', `${i.config.llm.model} is out of reach; the built-in assistant stands in`)
        : light('model', 'Model', 'green', i.config.llm.model)
      : light('model', 'Model', 'amber', away ? 'out of reach; the built-in assistant stands in' : 'the built-in assistant (none on the server)'),
    i.config.tts && !away
      ? light('speech', 'Voice', 'green', `${i.config.tts.model}, ${i.config.tts.voice}`)
      : i.browserVoice
        ? light('speech', 'Voice', 'amber', i.config.tts ? `${i.config.tts.model} is out of reach; the browser's voice stands in` : "the browser's own (none on the server)")
        : light('speech', 'Voice', 'red', 'none; captions only'),
  ];
}

function microphone(i: LightInputs, light: (name: LightName, label: string, state: Light, words: string) => StatusLight): StatusLight {
  if (i.microphoneFault === 'denied' || i.micPermission === 'denied') return light('microphone', 'Microphone', 'red', 'blocked by the browser');
  if (i.microphoneFault === 'missing') return light('microphone', 'Microphone', 'red', 'not found');
  if (i.microphoneFault === 'broken') return light('microphone', 'Microphone', 'red', 'not working');
  if (LISTENING.has(i.voiceStatus)) return light('microphone', 'Microphone', 'green', 'open');
  if (!i.config.stt && !i.browserRecognition) return light('microphone', 'Microphone', 'amber', 'not used: there is no speech recognition');
  if (i.micPermission === 'granted') return light('microphone', 'Microphone', 'green', 'allowed; it opens when a visit starts');
  return light('microphone', 'Microphone', 'amber', 'not allowed yet; the browser asks when a visit starts');
}
