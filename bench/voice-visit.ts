// One benchmark visit's beginning, shared by the voice scenarios: the bench flows served to the
// kiosk, Start tapped once the idle page has fetched its detector, the tap to the first
// microphone frame timed, and (on the first visit) what the page downloaded until it listened.

import { readFileSync, statSync } from 'node:fs';
import type { VoiceKiosk, VoiceKioskOptions } from '../tests/support/voice-kiosk.ts';
import type { AudioFixture, FixtureLine } from '../tests/support/audio-fixtures.ts';
import type { Findings } from './voice-findings.ts';
import { installFrameProbe } from './voice-frames.ts';
import { markTaps, named, readMarks, readResources, waitForMark, type Fetched } from './voice-marks.ts';

/** The flows in bench/flows, served by the kiosk's page at /bench-flows/<file>. */
export function benchFlow(file: 'free-answer.yaml' | 'dictation.yaml' | 'known-reply.yaml'): Pick<VoiceKioskOptions, 'flows' | 'query'> {
  const path = `/bench-flows/${file}`;
  return { flows: { [path]: readFileSync(new URL(`flows/${file}`, import.meta.url), 'utf8') }, query: { flow: path } };
}

/** The fixture's spoken lines (noise bursts left out). */
export function spokenLines(fixture: AudioFixture | null): FixtureLine[] {
  if (!fixture) throw new Error('the benchmark needs a fixture');
  return fixture.lines.filter((l) => l.kind === 'speech');
}

/** Resolves after `ms`. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

const DETECTOR_WASM = /\/vad\/[^/]*\.wasm$/;
/** The worklet is fetched by audioWorklet.addModule, which resource timing does not show. */
const WORKLET = new URL('../dist/vad/vad.worklet.bundle.min.js', import.meta.url);
/** The services' routes: the conversation's traffic, not the page's. */
const SERVICE_CALL = /\/api\/(llm|stt|tts)\//;

/**
 * Waits for the idle screen and the detector's files, puts the frame probe on the page, taps
 * Start and waits for the first frame. Adds `load.tap` (tap to vk:listening) and `load.ready`
 * (navigation to the detector's wasm fetched); on the benchmark's first visit, lists what the
 * page fetched until that first frame. Returns the first frame's page time.
 */
export async function startVisit(kiosk: VoiceKiosk, findings: Findings): Promise<number> {
  const { page } = kiosk;
  await page.locator('.kiosk[data-phase="idle"]').waitFor({ timeout: 15_000 });
  await page.waitForFunction(
    (pattern) => performance.getEntriesByType('resource').some((e) => new RegExp(pattern).test(e.name) && (e as unknown as { responseEnd: number }).responseEnd > 0),
    DETECTOR_WASM.source,
    { timeout: 20_000, polling: 100 },
  );
  // A kiosk waits idle for its visitor: let the detector's set-up finish before the tap.
  await page.waitForLoadState('networkidle');
  await sleep(300);
  await markTaps(page);
  await installFrameProbe(page);
  // The idle screen's Start, in whatever language the flow speaks.
  await page.locator('.kiosk[data-phase="idle"] button.primary').click();
  await waitForMark(page, 'vk:listening', 1, 15_000);
  const marks = await readMarks(page);
  const tap = named(marks, 'bench:tap')[0];
  const listening = named(marks, 'vk:listening')[0]!;
  if (tap) findings.add('load.tap', listening.at - tap.at);
  const fetched = await readResources(page);
  const wasm = fetched.find((r) => DETECTOR_WASM.test(r.url));
  if (wasm) findings.add('load.ready', wasm.responseEnd);
  if (!findings.downloadDescribed) {
    describeDownload(fetched.filter((r) => r.startTime <= listening.at && !SERVICE_CALL.test(r.url)), findings);
    findings.downloadDescribed = true;
  }
  return listening.at;
}

function megabytes(bytes: number): string {
  return bytes >= 100_000 ? `${(bytes / 1e6).toFixed(2)} MB` : `${(bytes / 1e3).toFixed(1)} kB`;
}

function describeDownload(items: readonly Fetched[], findings: Findings): void {
  const sorted = [...items].sort((a, b) => b.transferSize - a.transferSize);
  const total = sorted.reduce((n, r) => n + r.transferSize, 0);
  const compressed = sorted.filter((r) => r.encodedBodySize < r.decodedBodySize).length;
  let worklet = 0;
  try {
    worklet = statSync(WORKLET).size;
  } catch {
    // no such file in dist/: the line below says 0
  }
  findings.note(
    'load',
    `first visit, page load until the first microphone frame: ${megabytes(total)} in ${sorted.length} fetches ` +
      `(resource timing transferSize: headers + body; ${compressed === 0 ? 'none' : compressed} sent compressed; ` +
      `service calls /api/llm|stt|tts left out). Biggest:`,
  );
  for (const r of sorted.slice(0, 6)) findings.note('load', `  ${megabytes(r.transferSize).padStart(9)}  ${new URL(r.url).pathname}`);
  findings.note('load', `  plus the audio worklet (${megabytes(worklet)} in dist/, fetched by addModule, which resource timing does not show)`);
}
