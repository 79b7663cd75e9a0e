// The kiosk server's settings: defaults, what makes a service configured, the start-up errors,
// .env under the real environment, the names-only view the page gets, and the actions' allowed
// origins, secrets and analytics address.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, publicConfig, readConfig } from '../../server/config.ts';

function configError(env: Record<string, string>): string {
  try {
    readConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('readConfig accepted a configuration it should refuse');
}

describe('readConfig', () => {
  it('listens on 127.0.0.1:4173 with no services when nothing is set', () => {
    expect(readConfig({})).toEqual({
      host: '127.0.0.1',
      port: 4173,
      allowedHosts: [],
      llm: null,
      stt: null,
      tts: null,
      actions: { allowedOrigins: [], secrets: {} },
      flowOrigins: [],
      dataDir: 'data',
      analyticsUrl: null,
      warnings: [],
    });
  });

  it('takes every setting, and drops trailing slashes from base URLs', () => {
    const config = readConfig({
      HOST: '0.0.0.0',
      PORT: '8080',
      LLM_BASE_URL: 'https://api.example.com/v1/',
      LLM_API_KEY: 'sk-llm',
      LLM_MODEL: 'gpt-4o-mini',
      STT_BASE_URL: 'http://127.0.0.1:8081//',
      STT_MODEL: 'whisper-large-v3',
      TTS_BASE_URL: 'http://127.0.0.1:8880/v1',
      TTS_API_KEY: 'sk-tts',
      TTS_MODEL: 'kokoro',
      TTS_VOICE: 'af_heart',
      FLOW_ALLOWED_ORIGINS: 'https://flows.example, HTTP://10.0.0.5:8080/',
      KIOSK_DATA_DIR: '/var/lib/kiosk',
      TTS_VOICES: 'bf_emma, af_heart,am_adam',
      LLM_MAX_TOKENS: '300',
      LLM_EARLY_START: 'Off',
      ALLOWED_HOSTS: 'Kiosk.Clinic.example, kiosk-2.local',
    });
    expect(config).toEqual({
      host: '0.0.0.0',
      port: 8080,
      allowedHosts: ['kiosk.clinic.example', 'kiosk-2.local'],
      llm: { baseUrl: 'https://api.example.com/v1', apiKey: 'sk-llm', model: 'gpt-4o-mini', maxTokens: 300, earlyStart: false },
      stt: { baseUrl: 'http://127.0.0.1:8081', model: 'whisper-large-v3', mode: 'upload' },
      tts: { baseUrl: 'http://127.0.0.1:8880/v1', apiKey: 'sk-tts', model: 'kokoro', voice: 'af_heart', voices: ['af_heart', 'bf_emma', 'am_adam'] },
      actions: { allowedOrigins: [], secrets: {} },
      flowOrigins: ['https://flows.example', 'http://10.0.0.5:8080'],
      dataDir: '/var/lib/kiosk',
      analyticsUrl: null,
      warnings: [],
    });
  });

  it('reads where each secret may go (ACTION_SECRET_<NAME>_ORIGINS), never as a secret of its own', () => {
    const config = readConfig({
      ACTION_SECRET_CLINIC_TOKEN: 'clinic-token-value',
      ACTION_SECRET_CLINIC_TOKEN_ORIGINS: 'https://clinic.example,https://backup.clinic.example',
    });
    expect(config.actions.secrets).toEqual({ CLINIC_TOKEN: 'clinic-token-value' });
    expect(config.actions.secretOrigins).toEqual({ CLINIC_TOKEN: ['https://clinic.example', 'https://backup.clinic.example'] });
    expect(configError({ ACTION_SECRET_NOPE_ORIGINS: 'https://clinic.example' })).toBe('ACTION_SECRET_NOPE_ORIGINS is set but ACTION_SECRET_NOPE is not: there is no such secret to send.');
    expect(configError({ ACTION_SECRET_CLINIC_TOKEN: 'clinic-token-value', ACTION_SECRET_CLINIC_TOKEN_ORIGINS: 'https://clinic.example/path' })).toContain('ACTION_SECRET_CLINIC_TOKEN_ORIGINS');
    expect(configError({ FLOW_ALLOWED_ORIGINS: 'flows.example' })).toContain('FLOW_ALLOWED_ORIGINS');
  });

  it('needs only a base URL for speech; the models and voice have defaults and the key is optional', () => {
    const config = readConfig({ STT_BASE_URL: 'http://localhost:9000/v1', TTS_BASE_URL: 'http://localhost:9001/v1' });
    expect(config.stt).toEqual({ baseUrl: 'http://localhost:9000/v1', model: 'whisper-1', mode: 'upload' });
    expect(config.tts).toEqual({ baseUrl: 'http://localhost:9001/v1', model: 'tts-1', voice: 'alloy', voices: ['alloy'] });
  });

  it('streams speech recognition with STT_MODE=realtime, uploads a turn at a time otherwise', () => {
    expect(readConfig({ STT_BASE_URL: 'http://h/v1', STT_MODE: 'realtime' }).stt?.mode).toBe('realtime');
    expect(readConfig({ STT_BASE_URL: 'http://h/v1', STT_MODE: ' Upload ' }).stt?.mode).toBe('upload');
    const message = configError({ STT_BASE_URL: 'http://h/v1', STT_MODE: 'stream' });
    expect(message).toContain('STT_MODE');
    expect(message).toContain('"stream"');
    expect(message).not.toContain('\n');
    expect(configError({ STT_MODE: 'websocket' })).toContain('STT_MODE');
    const alone = readConfig({ STT_MODE: 'realtime' });
    expect(alone.stt).toBeNull();
    expect(alone.warnings).toEqual([expect.stringContaining('STT_BASE_URL')]);
  });

  it('reads TTS_FORMAT: pcm or wav forces that format, unset leaves pcm with the wav fallback', () => {
    const tts = (format?: string) => readConfig({ TTS_BASE_URL: 'http://localhost:9001/v1', ...(format === undefined ? {} : { TTS_FORMAT: format }) }).tts!;
    expect(tts().format).toBeUndefined();
    expect(tts(' WAV ').format).toBe('wav');
    expect(tts('pcm').format).toBe('pcm');
    expect(tts('').format).toBeUndefined();
    expect(publicConfig(readConfig({ TTS_BASE_URL: 'http://localhost:9001/v1' })).tts?.format).toBe('auto');
    expect(publicConfig(readConfig({ TTS_BASE_URL: 'http://localhost:9001/v1', TTS_FORMAT: 'wav' })).tts?.format).toBe('wav');
    const message = configError({ TTS_BASE_URL: 'http://localhost:9001/v1', TTS_FORMAT: 'mp3' });
    expect(message).toContain('TTS_FORMAT');
    expect(message).toContain('"mp3"');
  });

  it('refuses a language model without LLM_MODEL, naming the variable', () => {
    const message = configError({ LLM_BASE_URL: 'http://localhost:11434/v1' });
    expect(message).toContain('LLM_MODEL');
    expect(message).not.toContain('\n');
  });

  it.each([
    ['LLM_BASE_URL', 'not a url', { LLM_MODEL: 'm' }],
    ['STT_BASE_URL', 'localhost:9000', {}],
    ['TTS_BASE_URL', 'ftp://example.com/v1', {}],
    ['LLM_BASE_URL', 'https://example.com/v1?api-version=1', { LLM_MODEL: 'm' }],
  ])('refuses a malformed %s (%s) in one line naming it', (name, value, rest) => {
    const message = configError({ [name]: value, ...rest });
    expect(message).toContain(name);
    expect(message).not.toContain('\n');
  });

  it.each([
    ['ALLOWED_HOSTS', 'https://kiosk.example'],
    ['ALLOWED_HOSTS', 'kiosk.example:4173'],
    ['ALLOWED_HOSTS', 'kiosk.example/api'],
    ['ALLOWED_HOSTS', '*.example'],
    ['LLM_MAX_TOKENS', '0'],
    ['LLM_MAX_TOKENS', '1.5'],
    ['LLM_MAX_TOKENS', 'lots'],
    ['LLM_EARLY_START', 'sometimes'],
  ])('refuses %s=%s in one line naming it', (name, value) => {
    const message = configError({ [name]: value, LLM_BASE_URL: 'http://h/v1', LLM_MODEL: 'm' });
    expect(message).toContain(name);
    expect(message).toContain(value);
    expect(message).not.toContain('\n');
  });

  it('keeps TTS_VOICE among the voices the page may ask for, once, in front', () => {
    expect(readConfig({ TTS_BASE_URL: 'http://h/v1', TTS_VOICE: 'nova', TTS_VOICES: 'alloy,,nova, echo ' }).tts?.voices).toEqual(['nova', 'alloy', 'echo']);
  });

  it('takes a voice for each language from TTS_VOICE_<LANG>, tells the page, and lets it ask for them', () => {
    const config = readConfig({ TTS_BASE_URL: 'http://h/v1', TTS_VOICE: 'nova', TTS_VOICE_DE: 'thorsten', TTS_VOICE_PT_BR: 'faber', TTS_VOICE_ES: ' ' });
    expect(config.tts?.byLanguage).toEqual({ de: 'thorsten', 'pt-br': 'faber' });
    expect(config.tts?.voices).toEqual(['nova', 'thorsten', 'faber']);
    expect(publicConfig(config).tts?.byLanguage).toEqual({ de: 'thorsten', 'pt-br': 'faber' });
    expect(configError({ TTS_BASE_URL: 'http://h/v1', TTS_VOICE_FR: 'a voice' })).toContain('TTS_VOICE_FR');
  });

  it.each(['abc', '-1', '70000', '80.5'])('refuses PORT=%s', (port) => {
    expect(configError({ PORT: port })).toContain('PORT');
  });

  it('accepts PORT=0 (any free port)', () => {
    expect(readConfig({ PORT: '0' }).port).toBe(0);
  });

  it('counts blank values as unset', () => {
    const config = readConfig({ HOST: ' ', PORT: '', LLM_BASE_URL: '', LLM_MODEL: '', STT_BASE_URL: 'http://h/v1', STT_API_KEY: '  ' });
    expect(config.host).toBe('127.0.0.1');
    expect(config.port).toBe(4173);
    expect(config.llm).toBeNull();
    expect(config.stt).toEqual({ baseUrl: 'http://h/v1', model: 'whisper-1', mode: 'upload' });
  });

  it('warns about a key without a base URL and leaves the service off', () => {
    const config = readConfig({ LLM_API_KEY: 'sk-lonely' });
    expect(config.llm).toBeNull();
    expect(config.warnings).toEqual([expect.stringContaining('LLM_BASE_URL')]);
    expect(config.warnings.join()).not.toContain('sk-lonely');
  });
});

describe('readConfig: actions and analytics', () => {
  it('reads the allowed origins as URL origins: lower-case host, default port dropped, trailing slash and repeats gone', () => {
    const config = readConfig({ ACTIONS_ALLOWED_ORIGINS: ' https://Clinic.Example:443/ , http://127.0.0.1:5055,,https://clinic.example ' });
    expect(config.actions.allowedOrigins).toEqual(['https://clinic.example', 'http://127.0.0.1:5055']);
  });

  it.each([
    ['clinic.example', 'not an origin'],
    ['ftp://clinic.example', 'http:// or https://'],
    ['https://clinic.example/api', 'no path'],
    ['https://clinic.example?x=1', 'no path'],
    ['https://clinic.example/#top', 'no path'],
    ['https://user:pw@clinic.example', 'user name'],
    ['*', 'not an origin'],
  ])('refuses ACTIONS_ALLOWED_ORIGINS=%s in one line naming it', (origins, words) => {
    const message = configError({ ACTIONS_ALLOWED_ORIGINS: `https://ok.example,${origins}` });
    expect(message).toContain('ACTIONS_ALLOWED_ORIGINS');
    expect(message).toContain(words);
    expect(message).not.toContain('\n');
  });

  it('takes ACTION_SECRET_<NAME> variables by NAME, skipping blank ones', () => {
    const config = readConfig({ ACTION_SECRET_CLINIC_TOKEN: 'tok-1234567890', ACTION_SECRET_X2_KEY: ' key-abcdefgh ', ACTION_SECRET_EMPTY: ' ', OTHER: 'x' });
    expect(config.actions.secrets).toEqual({ CLINIC_TOKEN: 'tok-1234567890', X2_KEY: 'key-abcdefgh' });
  });

  it.each([
    ['ACTION_SECRET_clinic', 'long-enough-value', 'A-Z, 0-9'],
    ['ACTION_SECRET_SHORT', 'abc', 'shorter than 8'],
    ['ACTION_SECRET_BROKEN', 'line-one\nline-two', 'control character'],
  ])('refuses %s, never printing its value', (name, value, words) => {
    const message = configError({ [name]: value });
    expect(message).toContain(name);
    expect(message).toContain(words);
    expect(message).not.toContain(value);
  });

  it('reads ANALYTICS_URL and refuses a malformed one', () => {
    expect(readConfig({ ANALYTICS_URL: 'https://stats.example/events' }).analyticsUrl).toBe('https://stats.example/events');
    expect(configError({ ANALYTICS_URL: 'stats.example' })).toContain('ANALYTICS_URL');
    expect(configError({ ANALYTICS_URL: 'file:///tmp/x' })).toContain('ANALYTICS_URL');
  });
});

describe('publicConfig', () => {
  it('gives the page model and voice names only', () => {
    const config = readConfig({
      LLM_BASE_URL: 'https://llm.example.com/v1',
      LLM_API_KEY: 'sk-secret-llm',
      LLM_MODEL: 'gpt-4o-mini',
      TTS_BASE_URL: 'https://tts.example.com/v1',
      TTS_API_KEY: 'sk-secret-tts',
    });
    const view = publicConfig(config);
    expect(view).toEqual({ llm: { model: 'gpt-4o-mini', earlyStart: true }, stt: null, tts: { model: 'tts-1', voice: 'alloy', format: 'auto' } });
    expect(JSON.stringify(view)).not.toMatch(/secret|example\.com/);
  });

  it('tells the page how to reach speech recognition, without its address', () => {
    const view = publicConfig(readConfig({ STT_BASE_URL: 'https://stt.example.com/v1', STT_API_KEY: 'sk-secret-stt', STT_MODEL: 'gpt-4o-transcribe', STT_MODE: 'realtime' }));
    expect(view.stt).toEqual({ model: 'gpt-4o-transcribe', mode: 'realtime' });
    expect(publicConfig({ llm: null, stt: { baseUrl: 'http://h/v1', model: 'whisper-1' }, tts: null }).stt).toEqual({ model: 'whisper-1', mode: 'upload' });
    expect(JSON.stringify(view)).not.toMatch(/secret|example\.com/);
  });
});

describe('loadConfig and .env', () => {
  const NAMES = ['LLM_BASE_URL', 'LLM_MODEL', 'LLM_API_KEY', 'PORT'];
  const saved = Object.fromEntries(NAMES.map((n) => [n, process.env[n]]));
  let dir: string | undefined;

  afterEach(() => {
    for (const n of NAMES) {
      if (saved[n] === undefined) delete process.env[n];
      else process.env[n] = saved[n];
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('reads .env from the folder, and the real environment wins over it', () => {
    dir = mkdtempSync(join(tmpdir(), 'kiosk-env-'));
    writeFileSync(join(dir, '.env'), 'LLM_BASE_URL=http://from-file:11434/v1/\nLLM_MODEL=file-model\nLLM_API_KEY=file-key\nPORT=5000\n');
    for (const n of NAMES) delete process.env[n];
    process.env['LLM_MODEL'] = 'env-model';
    const config = loadConfig(dir);
    expect(config.llm).toEqual({ baseUrl: 'http://from-file:11434/v1', apiKey: 'file-key', model: 'env-model', maxTokens: 1024, earlyStart: true });
    expect(config.port).toBe(5000);
  });

  it('reads the environment alone when there is no .env', () => {
    dir = mkdtempSync(join(tmpdir(), 'kiosk-env-'));
    for (const n of NAMES) delete process.env[n];
    expect(loadConfig(dir).llm).toBeNull();
  });
});
