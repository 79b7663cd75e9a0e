// The operator's status lights, worked out from what the kiosk knows: every service on, the
// network gone, stand-ins, and each thing that can be wrong with the microphone.

import { describe, expect, it } from 'vitest';
import { get } from 'svelte/store';
import { t } from '../../src/ui/i18n/i18n.ts';
import { lightLine, statusLights, type LightInputs } from '../../src/ui/status-lights.ts';

describe('statusLights', () => {
  const ALL: LightInputs = {
    online: true,
    reachable: true,
    config: { llm: { model: 'gpt-x' }, stt: { model: 'whisper-1', mode: 'upload' }, tts: { model: 'tts-1', voice: 'alloy' } },
    browserRecognition: false,
    browserVoice: true,
    micPermission: 'granted',
    microphoneFault: null,
    recognitionFault: false,
    voiceStatus: 'off',
  };
  const shown = (i: Partial<LightInputs>) => Object.fromEntries(statusLights({ ...ALL, ...i }).map((l) => [l.name, `${l.light} ${lightLine(l, get(t))}`]));

  it('are all green with every service on and the microphone allowed', () => {
    expect(shown({})).toEqual({
      microphone: 'green Microphone: allowed; it opens when a visit starts',
      network: 'green Network: online',
      stt: 'green Speech recognition: whisper-1',
      model: 'green Model: gpt-x',
      speech: 'green Voice: tts-1, alloy',
    });
  });

  it('go red and amber offline, where the services are out of reach', () => {
    expect(shown({ online: false })).toMatchObject({
      network: 'red Network: offline',
      stt: 'red Speech recognition: whisper-1 is out of reach; visitors tap or type',
      model: 'amber Model: gpt-x is out of reach; the built-in assistant stands in',
      speech: "amber Voice: tts-1 is out of reach; the browser's voice stands in",
    });
    expect(shown({ reachable: false }).network).toBe("amber Network: online, but the kiosk's server does not answer");
  });

  it('show the stand-ins amber and what is missing red', () => {
    expect(shown({ config: { llm: null, stt: null, tts: null }, browserRecognition: true, browserVoice: false, micPermission: 'prompt' })).toEqual({
      microphone: 'amber Microphone: not allowed yet; the browser asks when a visit starts',
      network: 'green Network: online',
      stt: "amber Speech recognition: the browser's own (none on the server)",
      model: 'amber Model: the built-in assistant (none on the server)',
      speech: 'red Voice: none; captions only',
    });
  });

  it.each([
    [{ micPermission: 'denied' }, 'red Microphone: blocked by the browser'],
    [{ microphoneFault: 'missing' }, 'red Microphone: not found'],
    [{ microphoneFault: 'broken', voiceStatus: 'listening' }, 'red Microphone: not working'],
    [{ microphoneFault: 'silent', voiceStatus: 'no-microphone' }, 'red Microphone: open, but no sound comes from it'],
    [{ micPermission: 'unknown', voiceStatus: 'hearing' }, 'green Microphone: open'],
    [{ config: { ...ALL.config, stt: null } }, 'amber Microphone: not used: there is no speech recognition'],
  ] as const)('microphone: %j', (inputs, light) => {
    expect(shown(inputs as Partial<LightInputs>).microphone).toBe(light);
  });

  it('show failing recognition red', () => {
    expect(shown({ recognitionFault: true }).stt).toBe('red Speech recognition: whisper-1 is failing; visitors tap or type');
  });
});
