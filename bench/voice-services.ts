// What the services took themselves, as the doubles timed it (tests/servers: each records when a
// request came and when it gave the answer the kiosk waits on, on the wall clock), and where the
// kiosk's requests waited in the browser (resource timing). The reply benchmark takes the
// services' own time away from a reply's delay to leave the kiosk's own overhead, with the
// doubles' timer lateness on the services' side, and splits that overhead into its parts.

import type { Page } from '@playwright/test';
import { SentenceSplitter } from '../src/voice/sentences.ts';
import type { FakeOpenAI } from '../tests/servers/openai-fakes.ts';

/** One of the page's requests to the kiosk's server: when fetch() was called and when the browser sent it (page time, ms). */
export interface PageRequest {
  path: string;
  startTime: number;
  requestStart: number;
}

/** The page's requests to the model and speech routes, from resource timing (streamed answers appear once they end). */
export function readServiceRequests(page: Page): Promise<PageRequest[]> {
  return page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .filter((e) => /\/api\/(llm|tts|stt)\//.test(e.name))
      // Node's typings of `performance` (this runs in the page) do not know PerformanceResourceTiming.
      .map((e) => {
        const r = e as unknown as { name: string; startTime: number; requestStart: number };
        return { path: new URL(r.name).pathname, startTime: r.startTime, requestStart: r.requestStart };
      }),
  );
}

/** The services' own time for one reply, in ms; null where the double has no record in the window. */
export interface ServiceShare {
  recognition: number | null;
  model: number | null;
  speech: number | null;
}

/** The first of `items` whose wall time falls in [from, until). */
function within<T>(items: readonly T[], at: (item: T) => number | undefined, from: number, until: number): T | undefined {
  return items.find((item) => {
    const t = at(item);
    return t !== undefined && t >= from && t < until;
  });
}

/** When the chat double's answer had its first whole sentence out, as the kiosk's own splitter finds it. */
function firstSentenceAt(text: readonly { at: number; soFar: string }[]): number | undefined {
  const splitter = new SentenceSplitter();
  return text.find((piece) => splitter.push(piece.soFar).length > 0)?.at;
}

/** How far before the turn's end `from` is put (a double's clock and the page's may differ by a millisecond or two). */
export const FROM_EARLY_MS = 5;

/**
 * The doubles' own time for the reply to one line, found by wall-clock windows: recognition from
 * the turn's commit (or upload) to its text, the model from its request to the first sentence's
 * last piece, speech from its request to its first audio. `from` and `until` bound the line (wall
 * clock, ms); `sentence` is when the page handed the first sentence to speech.
 */
export function serviceShare(fakes: FakeOpenAI, upload: boolean, window: { from: number; transcript: number; sentence: number; until: number }): ServiceShare {
  const stt = upload
    ? within(fakes.stt.times, (t) => t.answeredAt, window.from, window.transcript + 1)
    : [...fakes.realtime.commits].reverse().find((c) => c.time.answeredAt !== undefined && c.time.answeredAt >= window.from && c.time.answeredAt < window.transcript + 1)?.time;
  const chat = within(fakes.llm.times, (t) => t.receivedAt, window.transcript - 1, window.until);
  const answered = chat && firstSentenceAt(chat.text);
  const speech = within(fakes.tts.deliveries, (d) => d.receivedAt, window.sentence - 1, window.until);
  // Streamed words all in when the turn ended (its last look at a pause answered before it) took none of the reply's time.
  const inAlready = !upload && stt === undefined && window.transcript - window.from <= FROM_EARLY_MS + 1;
  return {
    recognition: stt?.answeredAt !== undefined ? stt.answeredAt - stt.receivedAt : inAlready ? 0 : null,
    model: chat && answered !== undefined ? answered - chat.receivedAt : null,
    speech: speech?.firstChunkAt === undefined ? null : speech.firstChunkAt - speech.receivedAt,
  };
}

/** The page's request to `route` made at or after `from` (page time) and before `until`. */
export function requestAfter(requests: readonly PageRequest[], route: 'llm' | 'tts', from: number, until: number): PageRequest | undefined {
  return requests.find((r) => r.path.startsWith(`/api/${route}/`) && r.startTime >= from - 0.5 && r.startTime < until);
}
