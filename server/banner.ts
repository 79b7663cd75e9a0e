// The server's start banner: which outside services and origins it uses and what stands in for the
// others, each line naming the setting that would change it. The bundled flows' `{origin:NAME}`
// urls say which ACTION_ORIGIN_<NAME> an operator has to set, so the banner names that one.

import { ORIGIN_PREFIX, type KioskConfig, type SttMode } from './config.ts';

/** `{origin:NAME}` -> the bundled flows that call it (FlowLibrary.bundledOrigins). */
export type BundledOrigins = ReadonlyMap<string, readonly string[]>;

/** The banner's lines about the services, the actions, the panel and the counts. */
export function describeServices(config: KioskConfig, bundledOrigins: BundledOrigins = new Map()): string[] {
  const line = (label: string, model: string | undefined, fallback: string) =>
    `  ${label.padEnd(15)} ${model ?? `not configured: ${fallback}`}`;
  const voices = config.tts?.voices ?? [];
  return [
    line('host names', config.allowedHosts.length ? `${config.allowedHosts.join(', ')}, IP addresses and localhost` : undefined, 'IP addresses and localhost only (set ALLOWED_HOSTS)'),
    line('language model', config.llm ? `${config.llm.model}, at most ${config.llm.maxTokens} tokens an answer` : undefined, 'the built-in offline assistant'),
    line('speech to text', config.stt ? `${config.stt.model}, ${describeSttMode(config.stt.mode)}` : undefined, "the browser's speech recognition where it has one, else touch and typing"),
    line('text to speech', config.tts ? `${config.tts.model}, voice ${config.tts.voice}${voices.length > 1 ? ` (or ${voices.slice(1).join(', ')})` : ''}` : undefined, "the browser's speech synthesis"),
    line('actions', describeActions(config), `every action is refused (${whatToSet(bundledOrigins)})`),
    line('operator panel', config.operatorPin ? 'opened with the PIN (OPERATOR_PIN)' : undefined, 'none (set OPERATOR_PIN)'),
    line('analytics', config.analyticsUrl ? `counted, and sent to ${new URL(config.analyticsUrl).origin}` : undefined, 'counted on /api/status only'),
  ];
}

/**
 * Warnings for the bundled flows whose `{origin:NAME}` is not set while other actions are: their
 * actions would fail. (With no action configured at all, the actions line says it.)
 */
export function missingOrigins(config: KioskConfig, bundledOrigins: BundledOrigins): string[] {
  if (config.actions.allowedOrigins.length === 0) return [];
  const set = config.actions.origins ?? {};
  return [...bundledOrigins]
    .filter(([name]) => !Object.hasOwn(set, name))
    .map(([name, flows]) => `${flows.join(', ')} call${flows.length === 1 ? 's' : ''} {origin:${name}}, which is not set: ${flows.length === 1 ? 'its' : 'their'} actions fail until ${ORIGIN_PREFIX}${name} is set to the service's origin.`);
}

/** The settings that let actions run: the bundled flows' named origins first, then the general list. */
function whatToSet(bundledOrigins: BundledOrigins): string {
  const named = [...bundledOrigins].map(([name, flows]) => `${ORIGIN_PREFIX}${name} for ${flows.map(shortName).join(', ')}`);
  return named.length ? `set ${named.join('; ')}; ACTIONS_ALLOWED_ORIGINS for flows that name their origins in full` : 'set ACTIONS_ALLOWED_ORIGINS';
}

/** `flows/clinic-checkin.yaml` -> `clinic-checkin`. */
function shortName(source: string): string {
  return source.replace(/^flows\//, '').replace(/\.yaml$/, '');
}

/** How the turns reach speech recognition (STT_MODE). */
function describeSttMode(mode: SttMode | undefined): string {
  return mode === 'realtime' ? 'streamed while the visitor speaks (STT_MODE=realtime), a recording per turn when that fails' : 'a recording per turn (STT_MODE=upload)';
}

/** The allowed origins and the names (never the values) of the action secrets. */
function describeActions(config: KioskConfig): string | undefined {
  const { allowedOrigins, secrets } = config.actions;
  if (allowedOrigins.length === 0) return undefined;
  const names = Object.keys(secrets);
  return `may call ${allowedOrigins.join(', ')}; secrets: ${names.length ? names.join(', ') : 'none'}`;
}
