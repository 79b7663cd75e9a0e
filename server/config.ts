// The kiosk server's settings: where it listens and which outside services its /api/ proxy
// reaches, read from the environment (and a .env file). Keys stay here; the page sees names only.
//
//   HOST, PORT                                    default 127.0.0.1 and 4173
//   ALLOWED_HOSTS                                 names (besides IP addresses and localhost) the
//                                                 kiosk is reached by, comma-separated: /api/
//                                                 refuses any other Host (DNS rebinding)
//   LLM_BASE_URL, LLM_API_KEY, LLM_MODEL          chat; LLM_MODEL is required with a base URL
//   LLM_MAX_TOKENS                                the most tokens one answer may ask for (default 1024)
//   LLM_EARLY_START                               on (default) or off: with STT_MODE=realtime, ask the
//                                                 model at a pause that may end the turn, before it is final
//   STT_BASE_URL, STT_API_KEY, STT_MODEL          transcription; model default whisper-1
//   STT_MODE                                      upload (default: one WAV per turn) or realtime (the
//                                                 turn's audio streamed over /api/stt/realtime)
//   TTS_BASE_URL, TTS_API_KEY, TTS_MODEL, TTS_VOICE  speech; defaults tts-1 and alloy
//   TTS_VOICES                                    the voices the page may ask for, comma-separated
//                                                 (TTS_VOICE is always one of them; default: it alone)
//   TTS_FORMAT                                    pcm (streamed) or wav (whole sentences); unset: pcm,
//                                                 and wav for the rest of a visit when the service refuses pcm
//   ACTIONS_ALLOWED_ORIGINS                       origins a flow's HTTP effects may call (none: no action runs)
//   ACTION_SECRET_<NAME>                          the value a flow's `{secret:NAME}` stands for
//   ACTION_SECRET_<NAME>_ORIGINS                  the origins that secret may be sent to (unset: none)
//   ACTION_ORIGIN_<NAME>                          the origin a flow's url `{origin:NAME}/…` starts with (allowed too)
//   FLOW_ALLOWED_ORIGINS                          origins the server loads flow files from (/api/flows), besides its own
//   KIOSK_DATA_DIR                                where the server keeps what must outlive a restart (default ./data)
//   ANALYTICS_URL                                 where outcome events are forwarded (unset: counted only)
//   OPERATOR_PIN                                  the PIN of the operator panel, 4 to 12 digits (unset: no panel)
//
// A service is on when its base URL is set (any OpenAI-compatible server); keys are optional.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ServiceConfig, SpeechFormat } from '../src/ports/services.ts';

/** One OpenAI-compatible service the proxy forwards to. */
export interface UpstreamService {
  /** without a trailing slash, e.g. `https://api.openai.com/v1` */
  baseUrl: string;
  /** sent as `Authorization: Bearer …`; local servers need none */
  apiKey?: string;
  model: string;
}

/** The chat service, with the cap on what one answer may cost. */
export interface ChatService extends UpstreamService {
  /** the most tokens a request may ask for (`max_tokens`, `max_completion_tokens`); default 1024 */
  maxTokens?: number;
  /** ask for the reply at a pause that may end the turn (streaming recognition only); default true */
  earlyStart?: boolean;
}

/** How the page gets a turn's words: `upload` sends the whole turn as a WAV once it ends; `realtime` streams its audio while the visitor speaks. */
export type SttMode = 'upload' | 'realtime';

/** The speech recognition service, and how the page uses it. */
export interface SttService extends UpstreamService {
  /** absent: `upload` */
  mode?: SttMode;
}

/** The speech service: the voice used when the page names none, the voices it may name, and the audio format. */
export interface SpeechService extends UpstreamService {
  voice: string;
  /** every voice the page may ask for, `voice` first; default: `voice` alone */
  voices?: string[];
  /** the voice for visits in a language (a lower-case tag or primary subtag: `de`, `pt-br`), from TTS_VOICE_<LANG> */
  byLanguage?: Record<string, string>;
  /** `pcm` or `wav` when TTS_FORMAT forces one; absent: pcm, with wav as the fallback */
  format?: 'pcm' | 'wav';
}

/** Everything the server needs to know, after defaults. */
export interface KioskConfig {
  host: string;
  port: number;
  /** host names (lower case) /api/ answers to besides IP addresses and localhost */
  allowedHosts: string[];
  llm: ChatService | null;
  stt: SttService | null;
  tts: SpeechService | null;
  /** what the server may do for a flow's HTTP effects (`/api/actions`) */
  actions: ActionsConfig;
  /** origins flow files may be loaded from through `/api/flows`, besides the server's own */
  flowOrigins: string[];
  /** the folder for what outlives a restart (the last good copies of flows from addresses) */
  dataDir: string;
  /** where `/api/analytics` events are forwarded, or null to count them only */
  analyticsUrl: string | null;
  /** the operator panel's PIN; absent: the kiosk has no operator panel */
  operatorPin?: string;
  /** settings that look like a mistake but do not stop the server (a key without a base URL) */
  warnings: string[];
}

/** The operator's rules for actions: the only origins they reach, and the secrets flows refer to. */
export interface ActionsConfig {
  /** normalised origins (`https://clinic.example`, `http://127.0.0.1:5055`); empty: every action is refused */
  allowedOrigins: string[];
  /** NAME -> value, from `ACTION_SECRET_NAME` */
  secrets: Record<string, string>;
  /** NAME -> origin, from `ACTION_ORIGIN_NAME`: what a url starting `{origin:NAME}` calls (each one allowed) */
  origins?: Record<string, string>;
  /** NAME -> the origins the secret may be sent to, from `ACTION_SECRET_NAME_ORIGINS` (absent: nowhere) */
  secretOrigins?: Record<string, string[]>;
}

/** The prefix of the environment variables holding action secrets. */
export const SECRET_PREFIX = 'ACTION_SECRET_';
/** The suffix of `ACTION_SECRET_<NAME>_ORIGINS`: where that secret may go (so no secret's name ends in it). */
export const SECRET_ORIGINS_SUFFIX = '_ORIGINS';
/** The prefix of the environment variables naming the origins flows refer to as `{origin:NAME}`, and that reference at a url's start (NAME its group). */
export const ORIGIN_PREFIX = 'ACTION_ORIGIN_';
export const ORIGIN_REFERENCE = /^\{origin:([A-Z0-9_]+)\}/;
/** The shortest secret accepted: shorter ones could not be told apart from ordinary text when answers are scrubbed. */
export const MIN_SECRET_LENGTH = 8;

/** A setting the server cannot start with; the message is one line naming the variable. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = 4173;
export const DEFAULT_DATA_DIR = 'data';
export const DEFAULT_LLM_MAX_TOKENS = 1024;

type Env = Record<string, string | undefined>;

/**
 * The configuration described by `env` (a plain object, so tests need no real environment).
 * Throws a ConfigError for a malformed URL or port, or a chat service without a model.
 */
export function readConfig(env: Env): KioskConfig {
  const warnings: string[] = [];
  const llm = readService(env, 'LLM', undefined, warnings);
  const stt = readStt(env, warnings);
  const tts = readService(env, 'TTS', 'tts-1', warnings);
  const operatorPin = readOperatorPin(env);
  return {
    host: value(env, 'HOST') ?? DEFAULT_HOST,
    port: readPort(env),
    allowedHosts: readAllowedHosts(env),
    llm: llm && { ...llm, maxTokens: readMaxTokens(env), earlyStart: readEarlyStart(env) },
    stt,
    tts: tts && readSpeechFormat(env, readVoices(env, tts)),
    actions: readActions(env),
    flowOrigins: readOrigins(env, 'FLOW_ALLOWED_ORIGINS'),
    dataDir: value(env, 'KIOSK_DATA_DIR') ?? DEFAULT_DATA_DIR,
    analyticsUrl: readAnalyticsUrl(env),
    ...(operatorPin === undefined ? {} : { operatorPin }),
    warnings,
  };
}

/**
 * Loads `dir/.env` into `process.env` when the file exists (variables already set win), then
 * reads the configuration from `process.env`.
 */
export function loadConfig(dir: string = process.cwd()): KioskConfig {
  const file = join(dir, '.env');
  if (existsSync(file)) process.loadEnvFile(file);
  return readConfig(process.env);
}

/** What `GET /api/config` tells the page: model and voice names and the speech format, never keys or addresses. */
export function publicConfig(config: Pick<KioskConfig, 'llm' | 'stt' | 'tts'>): ServiceConfig {
  return {
    llm: config.llm && { model: config.llm.model, earlyStart: config.llm.earlyStart ?? true },
    stt: config.stt && { model: config.stt.model, mode: config.stt.mode ?? 'upload' },
    tts: config.tts && { model: config.tts.model, voice: config.tts.voice, format: speechFormat(config.tts), ...(config.tts.byLanguage ? { byLanguage: config.tts.byLanguage } : {}) },
  };
}

/** How the page fetches speech: the format TTS_FORMAT forces, else pcm with the wav fallback. */
export function speechFormat(tts: Pick<SpeechService, 'format'>): SpeechFormat {
  return tts.format ?? 'auto';
}

/** A trimmed setting; blank counts as unset. */
function value(env: Env, name: string): string | undefined {
  const v = env[name]?.trim();
  return v ? v : undefined;
}

function readService(env: Env, prefix: 'LLM' | 'STT' | 'TTS', defaultModel: string | undefined, warnings: string[]): UpstreamService | null {
  const base = value(env, `${prefix}_BASE_URL`);
  const apiKey = value(env, `${prefix}_API_KEY`);
  if (base === undefined) {
    if (apiKey !== undefined) warnings.push(`${prefix}_API_KEY is set but ${prefix}_BASE_URL is not, so this service stays off.`);
    return null;
  }
  const model = value(env, `${prefix}_MODEL`) ?? defaultModel;
  if (model === undefined) {
    throw new ConfigError(`${prefix}_BASE_URL is set but ${prefix}_MODEL is not: set ${prefix}_MODEL to the model to use (for example gpt-4o-mini).`);
  }
  const service: UpstreamService = { baseUrl: readBaseUrl(base, `${prefix}_BASE_URL`), model };
  if (apiKey !== undefined) service.apiKey = apiKey;
  return service;
}

/** The transcription service with STT_MODE: `upload` unless set to `realtime`. */
function readStt(env: Env, warnings: string[]): SttService | null {
  const stt = readService(env, 'STT', 'whisper-1', warnings);
  const text = value(env, 'STT_MODE');
  const mode = text?.toLowerCase() ?? 'upload';
  if (mode !== 'upload' && mode !== 'realtime') {
    throw new ConfigError(`STT_MODE must be upload (one recording per turn) or realtime (the audio streamed while the visitor speaks), not "${text}".`);
  }
  if (stt === null) {
    if (text !== undefined) warnings.push('STT_MODE is set but STT_BASE_URL is not, so speech recognition stays off.');
    return null;
  }
  return { ...stt, mode };
}

function readBaseUrl(text: string, name: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ConfigError(`${name} is not a valid URL (expected something like https://api.openai.com/v1).`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`${name} must start with http:// or https:// (expected something like https://api.openai.com/v1).`);
  }
  if (url.search || url.hash) throw new ConfigError(`${name} must not have a query (?…) or a fragment (#…).`);
  return text.replace(/\/+$/, '');
}

function readPort(env: Env): number {
  const text = value(env, 'PORT');
  if (text === undefined) return DEFAULT_PORT;
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65535) throw new ConfigError(`PORT must be a whole number from 0 to 65535, not "${text}".`);
  return port;
}

/** ALLOWED_HOSTS: host names only (no scheme, port or path), lower-cased. */
function readAllowedHosts(env: Env): string[] {
  const hosts: string[] = [];
  for (const item of (value(env, 'ALLOWED_HOSTS') ?? '').split(',').map((part) => part.trim().toLowerCase())) {
    if (!item) continue;
    if (!/^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$/.test(item)) {
      throw new ConfigError(`ALLOWED_HOSTS: "${item}" is not a host name (expected names like kiosk.clinic.example,kiosk-2.local, with no scheme, port or path).`);
    }
    if (!hosts.includes(item)) hosts.push(item);
  }
  return hosts;
}

function readEarlyStart(env: Env): boolean {
  const text = value(env, 'LLM_EARLY_START');
  const setting = text?.toLowerCase() ?? 'on';
  if (setting !== 'on' && setting !== 'off') {
    throw new ConfigError(`LLM_EARLY_START must be on (ask the model at a pause, before the turn is final) or off, not "${text}".`);
  }
  return setting === 'on';
}

function readMaxTokens(env: Env): number {
  const text = value(env, 'LLM_MAX_TOKENS');
  if (text === undefined) return DEFAULT_LLM_MAX_TOKENS;
  if (!/^\d{1,7}$/.test(text) || Number(text) < 1) throw new ConfigError(`LLM_MAX_TOKENS must be a whole number of tokens above 0, not "${text}".`);
  return Number(text);
}

/** TTS_VOICE (the default), TTS_VOICES (others the page may ask for), TTS_VOICE_<LANG> (a language's own: TTS_VOICE_DE, TTS_VOICE_PT_BR). */
function readVoices(env: Env, tts: UpstreamService): SpeechService {
  const voice = value(env, 'TTS_VOICE') ?? 'alloy';
  const byLanguage: Record<string, string> = {};
  const own = Object.keys(env).sort().filter((name) => /^TTS_VOICE_[A-Z]{2,3}(_[A-Z0-9]{1,8})*$/.test(name) && value(env, name) !== undefined);
  for (const name of own) {
    const named = value(env, name)!;
    if (!/^[\w.-]{1,64}$/.test(named)) throw new ConfigError(`${name} must be a voice name (letters, digits, - _ and . only), not "${named.slice(0, 40)}".`);
    byLanguage[name.slice('TTS_VOICE_'.length).toLowerCase().replace(/_/g, '-')] = named;
  }
  const listed = (value(env, 'TTS_VOICES') ?? '').split(',').map((part) => part.trim());
  const voices = [...new Set([voice, ...listed, ...Object.values(byLanguage)].filter(Boolean))];
  return { ...tts, voice, voices, ...(own.length > 0 ? { byLanguage } : {}) };
}

/** TTS_FORMAT: `pcm` or `wav` forces that format; unset, the page streams pcm and falls back to wav. */
function readSpeechFormat(env: Env, tts: SpeechService): SpeechService {
  const text = value(env, 'TTS_FORMAT')?.toLowerCase();
  if (text === undefined) return tts;
  if (text !== 'pcm' && text !== 'wav') {
    throw new ConfigError(`TTS_FORMAT must be pcm (streamed) or wav (whole sentences), not "${env['TTS_FORMAT']?.trim()}"; leave it unset for pcm with wav as the fallback.`);
  }
  return { ...tts, format: text };
}

function readActions(env: Env): ActionsConfig {
  const allowedOrigins = readOrigins(env, 'ACTIONS_ALLOWED_ORIGINS');
  const origins: Record<string, string> = {};
  for (const name of Object.keys(env).sort()) {
    if (!name.startsWith(ORIGIN_PREFIX)) continue;
    const key = name.slice(ORIGIN_PREFIX.length);
    const text = value(env, name);
    if (text === undefined) continue;
    if (!/^[A-Z0-9_]+$/.test(key)) throw new ConfigError(`${name}: an origin's name after ${ORIGIN_PREFIX} may hold only A-Z, 0-9 and _ (flows write it as {origin:NAME}).`);
    origins[key] = readOrigin(text, name);
    // The operator named it for the flows to call: it is allowed like ACTIONS_ALLOWED_ORIGINS.
    if (!allowedOrigins.includes(origins[key])) allowedOrigins.push(origins[key]);
  }
  const secrets = readSecrets(env);
  const secretOrigins = readSecretOrigins(env, secrets);
  return {
    allowedOrigins,
    secrets,
    ...(Object.keys(origins).length ? { origins } : {}),
    ...(Object.keys(secretOrigins).length ? { secretOrigins } : {}),
  };
}

/** `ACTION_SECRET_<NAME>_ORIGINS` for each secret: a list of origins, each one also allowed for actions. */
function readSecretOrigins(env: Env, secrets: Readonly<Record<string, string>>): Record<string, string[]> {
  const where: Record<string, string[]> = {};
  for (const name of Object.keys(env).sort()) {
    if (!name.startsWith(SECRET_PREFIX) || !name.endsWith(SECRET_ORIGINS_SUFFIX)) continue;
    const secret = name.slice(SECRET_PREFIX.length, -SECRET_ORIGINS_SUFFIX.length);
    if (value(env, name) === undefined) continue;
    if (!Object.hasOwn(secrets, secret)) throw new ConfigError(`${name} is set but ${SECRET_PREFIX}${secret} is not: there is no such secret to send.`);
    where[secret] = readOrigins(env, name);
  }
  return where;
}

function readOrigins(env: Env, variable: string): string[] {
  const text = value(env, variable);
  if (text === undefined) return [];
  const origins: string[] = [];
  for (const item of text.split(',').map((part) => part.trim())) {
    if (!item) continue;
    const origin = readOrigin(item, variable);
    if (!origins.includes(origin)) origins.push(origin);
  }
  return origins;
}

/** One origin as `URL.origin` spells it (lower-case host, no default port), or a ConfigError. */
function readOrigin(item: string, variable = 'ACTIONS_ALLOWED_ORIGINS'): string {
  const example = 'expected origins like https://clinic.example,http://127.0.0.1:5055';
  let url: URL;
  try {
    url = new URL(item);
  } catch {
    throw new ConfigError(`${variable}: "${item}" is not an origin (${example}).`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`${variable}: "${item}" must start with http:// or https:// (${example}).`);
  }
  if (url.username || url.password) throw new ConfigError(`${variable}: "${item}" must not hold a user name or password.`);
  if (url.pathname !== '/' || url.search || url.hash || /[?#]/.test(item)) {
    throw new ConfigError(`${variable}: "${item}" must be an origin only, with no path, query or fragment (${example}).`);
  }
  return url.origin;
}

function readSecrets(env: Env): Record<string, string> {
  const secrets: Record<string, string> = {};
  for (const name of Object.keys(env).sort()) {
    if (!name.startsWith(SECRET_PREFIX) || name.endsWith(SECRET_ORIGINS_SUFFIX)) continue;
    const key = name.slice(SECRET_PREFIX.length);
    const secret = value(env, name);
    if (secret === undefined) continue;
    if (!/^[A-Z0-9_]+$/.test(key)) {
      throw new ConfigError(`${name}: a secret's name after ${SECRET_PREFIX} may hold only A-Z, 0-9 and _ (flows write it as {secret:NAME}).`);
    }
    if (/[\x00-\x1f\x7f]/.test(secret)) throw new ConfigError(`${name} holds a line break or another control character; it cannot be sent in a header.`);
    if (secret.length < MIN_SECRET_LENGTH) {
      throw new ConfigError(`${name} is shorter than ${MIN_SECRET_LENGTH} characters; so short a value cannot be kept out of answers reliably.`);
    }
    secrets[key] = secret;
  }
  return secrets;
}

function readAnalyticsUrl(env: Env): string | null {
  const text = value(env, 'ANALYTICS_URL');
  if (text === undefined) return null;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ConfigError('ANALYTICS_URL is not a valid URL (expected something like https://stats.example/kiosk-events).');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError('ANALYTICS_URL must start with http:// or https://.');
  return url.href;
}

/** The operator's PIN: digits only, typed on a touch screen's number pad; long enough not to be guessed in a few tries. */
function readOperatorPin(env: Env): string | undefined {
  const pin = value(env, 'OPERATOR_PIN');
  if (pin === undefined) return undefined;
  if (!/^\d{4,12}$/.test(pin)) throw new ConfigError('OPERATOR_PIN must be 4 to 12 digits (0-9), typed on the kiosk to open its operator panel.');
  return pin;
}
