// The voice benchmark's reply latency: from the true end of a visitor's line to the first sound
// of the kiosk's reply, with the services' delays modelled by the test doubles at a "typical
// cloud" profile, for three pipelines side by side in one run: the turn uploaded as a file once
// it is over, the turn streamed while it is spoken (STT_MODE=realtime), and the stream with the
// early start (the reply prepared at a pause), and the same stream where the reply is one the
// engine knows word for word (the gate's question about what the flow's own rule took), said
// without the model. The parts are measured from the page's marks:
// the end-of-speech wait, recognition, the model's first sentence, speech's first audio, and the
// kiosk's own overhead: what is left when the turn's wait and the services' own time, as the doubles
// timed it, are taken away (voice-services.ts), with its parts.

import type { VoiceKiosk } from '../tests/support/voice-kiosk.ts';
import { transcriptsFor } from '../tests/support/voice-kiosk.ts';
import type { Findings } from './voice-findings.ts';
import { named, readMarks, waitForMark, type Mark } from './voice-marks.ts';
import { clockOf, eachRun } from './voice-scenarios.ts';
import { FROM_EARLY_MS, readServiceRequests, requestAfter, serviceShare, type PageRequest, type ServiceShare } from './voice-services.ts';
import { benchFlow, spokenLines, startVisit } from './voice-visit.ts';

/** The services' delays the doubles play: a cloud STT, LLM and TTS on a good connection. */
export const TYPICAL_CLOUD = {
  /** streaming recognition: the text this long after the commit */
  sttFinalMs: 150,
  /** upload per turn: the same, plus this much per second of the turn's audio (sending and transcribing it whole) */
  uploadMsPerAudioSecond: 100,
  /** the model's first token */
  llmFirstTokenMs: 350,
  llmTokensPerSecond: 60,
  /** speech: the first audio of a sentence */
  ttsFirstChunkMs: 150,
  /** and the rest, at this fraction of real time */
  ttsRealTimeFactor: 0.5,
} as const;

export type Pipeline = 'upload' | 'streaming' | 'early' | 'known';
export const PIPELINES: readonly Pipeline[] = ['upload', 'streaming', 'early', 'known'];

const ENV: Record<Pipeline, Record<string, string>> = {
  upload: { STT_MODE: 'upload' },
  streaming: { STT_MODE: 'realtime', LLM_EARLY_START: 'off' },
  early: { STT_MODE: 'realtime', LLM_EARLY_START: 'on' },
  known: { STT_MODE: 'realtime', LLM_EARLY_START: 'on' },
};

/** The model's reply to every line; the kiosk speaks its first sentence first. */
const REPLY = 'Thanks. Please go on.';
const FIRST_SENTENCE = 'Thanks.';
/** The chat double sends about one token (four characters) a chunk. */
const CHARS_PER_CHUNK = 4;

/** The modelled time from the model's request to the end of its first sentence. */
export function modelledFirstSentenceMs(): number {
  const chunks = Math.ceil((FIRST_SENTENCE.length + 2) / CHARS_PER_CHUNK);
  return TYPICAL_CLOUD.llmFirstTokenMs + chunks * (1000 / TYPICAL_CLOUD.llmTokensPerSecond);
}

function applyProfile(kiosk: VoiceKiosk): void {
  const { fakes } = kiosk;
  const p = TYPICAL_CLOUD;
  fakes.stt.delayFor = (audioMs) => p.sttFinalMs + (audioMs / 1000) * p.uploadMsPerAudioSecond;
  fakes.realtime.latency({ finalAfterCommitMs: p.sttFinalMs });
  fakes.llm.chunkDelayMs = 1000 / p.llmTokensPerSecond;
  fakes.llm.script([
    { when: { last: 'user' }, reply: { text: REPLY }, delayMs: p.llmFirstTokenMs },
    { when: { last: 'system' }, reply: { text: '' } },
  ]);
  fakes.tts.firstChunkMs = p.ttsFirstChunkMs;
  fakes.tts.realTimeFactor = p.ttsRealTimeFactor;
  // Short replies: the kiosk is quiet again before the next line begins.
  fakes.tts.durationFor = () => 500;
}

/** The first mark named `name` at or after `from` (and before `until`). */
function firstAfter(marks: readonly Mark[], name: string, from: number, until = Infinity): Mark | undefined {
  return named(marks, name).find((m) => m.at >= from && m.at < until);
}

/** The marks of one line's reply, from its true end: all or nothing. */
interface ReplyMarks {
  end: Mark;
  transcript: Mark;
  sentence: Mark;
  chunk: Mark;
  sound: Mark;
}

function replyMarks(marks: readonly Mark[], trueEnd: number, nextStart: number): ReplyMarks | undefined {
  const end = firstAfter(marks, 'vk:speech-end', trueEnd - 100, nextStart);
  const transcript = end && firstAfter(marks, 'vk:transcript', end.at, nextStart);
  const sentence = transcript && firstAfter(marks, 'vk:sentence', transcript.at, nextStart);
  const chunk = sentence && firstAfter(marks, 'vk:tts-first-chunk', sentence.at, nextStart);
  const sound = sentence && firstAfter(marks, 'vk:tts-start', sentence.at, nextStart);
  return end && transcript && sentence && chunk && sound ? { end, transcript, sentence, chunk, sound } : undefined;
}

/**
 * The kiosk's own overhead in one reply and its parts: the reply's delay less the turn's wait and
 * the services' own time as the doubles timed it; of that, the page's own work before each request,
 * the browser's wait before sending it, the lead before the first sound, and the rest (the hops
 * through the kiosk's server to the services and back, and the page reading their answers).
 */
function addOverhead(findings: Findings, key: string, m: ReplyMarks, total: number, wait: number, share: ServiceShare, requests: readonly PageRequest[], nextStart: number): void {
  const { recognition, model, speech } = share;
  if (recognition === null || model === null || speech === null) {
    findings.note('reply', `!! ${key}: a double has no record of its part of a reply; its overhead is left out`);
    return;
  }
  const overhead = total - wait - recognition - model - speech;
  findings.add(`${key}.overhead`, overhead);
  findings.add(`${key}.service.recognition`, recognition);
  findings.add(`${key}.service.model`, model);
  findings.add(`${key}.service.speech`, speech);
  const llm = requestAfter(requests, 'llm', m.transcript.at, nextStart);
  const tts = requestAfter(requests, 'tts', m.sentence.at, nextStart);
  if (!llm || !tts) return;
  const page = llm.startTime - m.transcript.at + (tts.startTime - m.sentence.at);
  const dispatch = llm.requestStart - llm.startTime + (tts.requestStart - tts.startTime);
  const lead = m.sound.at - m.chunk.at;
  findings.add(`${key}.overhead.page`, page);
  findings.add(`${key}.overhead.dispatch`, dispatch);
  findings.add(`${key}.overhead.lead`, lead);
  findings.add(`${key}.overhead.hops`, overhead - page - dispatch - lead);
}

/**
 * Where the early start's time goes: the true end to the pause that committed the line's last
 * stretch, to the reply asked for once its words were back (the last ask before the reply's
 * first sentence: an earlier one, at a pause the visitor spoke on after, was dropped), and from
 * the ask to the first sentence (the model's time, as the page sees it).
 */
function addEarlyAsk(findings: Findings, key: string, marks: readonly Mark[], trueEnd: number, m: ReplyMarks): void {
  const asked = named(marks, 'vk:early-reply-asked').filter((a) => a.at < m.sentence.at).at(-1);
  const pause = asked && named(marks, 'vk:pause-commit').filter((p) => p.at <= asked.at).at(-1);
  if (!asked || !pause || pause.at < trueEnd - 500) return;
  findings.add(`${key}.pause`, pause.at - trueEnd);
  findings.add(`${key}.asked`, asked.at - trueEnd);
  findings.add(`${key}.askedToSentence`, m.sentence.at - asked.at);
}

/** One pipeline, `runs` visits of the bench fixture's ten lines, each answered by the model. */
export async function onePipeline(pipeline: Pipeline, runs: number, findings: Findings): Promise<void> {
  const flow = benchFlow(pipeline === 'known' ? 'known-reply.yaml' : 'free-answer.yaml');
  await eachRun(`reply latency, ${pipeline}`, runs, findings, { fixture: 'bench', ...flow, env: ENV[pipeline] }, async (kiosk, label) => {
    const lines = spokenLines(kiosk.fixture);
    applyProfile(kiosk);
    kiosk.fakes.stt.script(transcriptsFor(kiosk.fixture, lines.map((l) => l.text)));
    await startVisit(kiosk, findings);
    await waitForMark(kiosk.page, 'vk:tts-start', lines.length, 60_000);
    const marks = await readMarks(kiosk.page);
    const clock = await clockOf(kiosk.page, marks, lines, findings);
    const origin = await kiosk.page.evaluate(() => performance.timeOrigin);
    const requests = await readServiceRequests(kiosk.page);
    const key = `reply.${pipeline}`;
    let measured = 0;
    lines.forEach((line, i) => {
      const trueEnd = clock.fileToPage(line.endMs);
      const nextStart = i + 1 < lines.length ? clock.fileToPage(lines[i + 1]!.startMs) : Infinity;
      const m = replyMarks(marks, trueEnd, nextStart);
      if (!m) {
        findings.note('reply', `!! ${label}: line ${i + 1} ("${line.text}") has no full set of marks before the next line`);
        return;
      }
      measured++;
      const total = m.sound.at - trueEnd;
      const wait = m.end.at - trueEnd;
      findings.add(`${key}.total`, total);
      findings.add(`${key}.wait`, wait);
      findings.add(`${key}.recognition`, m.transcript.at - m.end.at);
      findings.add(`${key}.model`, m.sentence.at - m.transcript.at);
      findings.add(`${key}.speech`, m.chunk.at - m.sentence.at);
      findings.add(`${key}.sound`, m.sound.at - m.chunk.at);
      if (pipeline === 'early') addEarlyAsk(findings, key, marks, trueEnd, m);
      if (pipeline === 'early' || pipeline === 'known') return;
      const wall = (at: number) => origin + at;
      const share = serviceShare(kiosk.fakes, pipeline === 'upload', { from: wall(m.end.at) - FROM_EARLY_MS, transcript: wall(m.transcript.at), sentence: wall(m.sentence.at), until: wall(nextStart) });
      addOverhead(findings, key, m, total, wait, share, requests, nextStart);
    });
    if (measured < lines.length) findings.fail(`${label}: ${lines.length - measured} of ${lines.length} lines not measured`);
    const prepared = (kind: string) => named(marks, `vk:early-reply-${kind}`).length;
    if (pipeline === 'early') findings.note('reply', `${label}: replies prepared at a pause ${prepared('asked')}, taken ${prepared('taken')}, dropped ${prepared('dropped')}`);
    const turns = named(marks, 'vk:speech-end').length;
    if (turns !== lines.length) findings.note('reply', `!! ${label}: ${turns} turns for ${lines.length} lines`);
  });
}

/** 5. Reply latency: the three pipelines, one after another, in the same run. */
export async function replyLatency(runs: number, findings: Findings): Promise<void> {
  for (const pipeline of PIPELINES) await onePipeline(pipeline, runs, findings);
}
