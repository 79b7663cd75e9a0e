// What `npm run bench:voice` prints for the reply latency (bench/voice-latency.ts): per pipeline,
// the end of a line to the first sound of the reply, and its parts.

import { summarize, textTable } from './stats.ts';
import type { Findings } from './voice-findings.ts';
import { modelledFirstSentenceMs, PIPELINES, TYPICAL_CLOUD, type Pipeline } from './voice-latency.ts';

const NAMES: Record<Pipeline, string> = {
  upload: 'upload per turn',
  streaming: 'streaming',
  early: 'streaming + early start',
  known: 'a reply the engine knows (streaming)',
};

const PARTS: readonly [string, string][] = [
  ['total', 'end of speech -> first sound'],
  ['wait', '  end-of-speech wait (true end -> vk:speech-end)'],
  ['recognition', '  recognition final (-> vk:transcript)'],
  ['model', "  the model's first sentence (-> vk:sentence)"],
  ['speech', "  speech's first audio (-> vk:tts-first-chunk)"],
  ['sound', '  to the speaker (-> vk:tts-start)'],
  ['pause', '  early start: the pause that committed the last stretch (true end -> vk:pause-commit)'],
  ['asked', '  early start: its words back, the reply asked for (true end -> vk:early-reply-asked)'],
  ['askedToSentence', "  early start: the ask to the model's first sentence (-> vk:sentence)"],
  ['overhead', "  the kiosk's own overhead (the rest)"],
  ['overhead.page', "    the page's own work before its two requests"],
  ['overhead.dispatch', '    the browser holding them before sending'],
  ['overhead.hops', "    the hops through the kiosk's server and back"],
  ['overhead.lead', '    the lead before the first sound'],
];

/** The rows only the early start has: where its ask falls. */
const EARLY_ONLY = new Set(['pause', 'asked', 'askedToSentence']);

/** The services' own time, as the doubles timed it: what the overhead is measured against. */
const SERVICES: readonly [string, string][] = [
  ['recognition', 'recognition'],
  ['model', "the model's first sentence"],
  ['speech', "speech's first audio"],
];

function ms(x: number): string {
  return Math.abs(x) < 10 ? x.toFixed(1) : x.toFixed(0);
}

export function replyReport(f: Findings): void {
  const rows: string[][] = [];
  for (const pipeline of PIPELINES) {
    for (const [key, label] of PARTS) {
      if (EARLY_ONLY.has(key) && pipeline !== 'early') continue;
      const s = summarize(f.of(`reply.${pipeline}.${key}`));
      const name = key === 'total' ? `${NAMES[pipeline]}: ${label}` : label;
      rows.push(s ? [name, String(s.n), ms(s.p50), ms(s.p95), ms(s.min), ms(s.max)] : [name, '0', '-', '-', '-', '-']);
    }
  }
  const p = TYPICAL_CLOUD;
  const own = PIPELINES.filter((pipeline) => pipeline !== 'early' && pipeline !== 'known').map((pipeline) => {
    const parts = SERVICES.map(([key, name]) => {
      const s = summarize(f.of(`reply.${pipeline}.service.${key}`));
      return s ? `${name} ${ms(s.p50)}` : `${name} -`;
    });
    return `  ${NAMES[pipeline]}: ${parts.join(', ')}`;
  });
  console.log('\n7. Reply latency: the true end of a spoken line to the first sound of the reply (bench fixture, ten free answers a run)');
  console.log(textTable(['', 'n', 'p50 ms', 'p95 ms', 'min ms', 'max ms'], rows));
  for (const line of [
    `"typical cloud" delays played by the doubles: recognition final ${p.sttFinalMs} ms after the commit (upload: plus ${p.uploadMsPerAudioSecond} ms per second of audio),`,
    `  the model's first token ${p.llmFirstTokenMs} ms then ${p.llmTokensPerSecond} tokens/s (first sentence "Thanks." modelled at ${ms(modelledFirstSentenceMs())} ms), speech's first audio ${p.ttsFirstChunkMs} ms, the rest at ${p.ttsRealTimeFactor}x real time.`,
    `overhead = total - wait - the services' own time as the doubles timed it (p50 ms, timers' lateness included):`,
    ...own,
    `  of it: the page's work from the transcript to the model's request and from the first sentence to speech's; the browser's wait`,
    `  between fetch() and sending (resource timing); the lead before the first sound; the rest, the hops through the kiosk's server.`,
    `  With the early start the reply is asked for at a pause (vk:pause-commit), so the parts overlap and no overhead is computed.`,
    `  A reply the engine knows is the gate's question about what the flow's own rule took (bench/flows/known-reply.yaml): no model.`,
    `goal (issue 33): end of speech to first sound p50 <= 850 ms where the model answers, <= 700 ms where the engine knows the reply.`,
    ...f.notesOf('reply'),
  ])
    console.log(line);
}
