import { openVoiceKiosk, transcriptsFor } from '/work/wt-stream/tests/support/voice-kiosk.ts';
import { benchFlow, spokenLines, startVisit } from '/work/wt-stream/bench/voice-visit.ts';
import { Findings } from '/work/wt-stream/bench/voice-findings.ts';
import { TYPICAL_CLOUD } from '/work/wt-stream/bench/voice-latency.ts';
const f = new Findings();
for (let run = 0; run < 5; run++) {
const kiosk = await openVoiceKiosk({ microphone: 'file', serviceWorkers: 'allow', fixture: 'bench', ...benchFlow('free-answer.yaml'), env: { STT_MODE: 'realtime' } });
const lines = spokenLines(kiosk.fixture);
const p = TYPICAL_CLOUD; const { fakes } = kiosk;
fakes.realtime.latency({ finalAfterCommitMs: p.sttFinalMs });
fakes.llm.chunkDelayMs = 1000 / 60;
fakes.llm.script([{ when: { last: 'user' }, reply: { text: 'Thanks. Please go on.' }, delayMs: 350 }, { when: { last: 'system' }, reply: { text: '' } }]);
fakes.tts.firstChunkMs = 150; fakes.tts.realTimeFactor = 0.5; fakes.tts.durationFor = () => 500;
fakes.stt.script(transcriptsFor(kiosk.fixture, lines.map((l) => l.text)));
await startVisit(kiosk, f);
await new Promise((r) => setTimeout(r, 40000));
const caps = await kiosk.page.locator('.captions li').allInnerTexts();
const mm = await kiosk.marks(); if ((mm["vk:tts-start"]?.length ?? 0) < 10) console.log("RUN", run, JSON.stringify(caps));
console.log('commits', fakes.realtime.commits.map((c) => [c.speechMs, c.transcript]));
console.log('console', kiosk.console);
const m = await kiosk.marks(); console.log('ttsstart', m['vk:tts-start']?.length, 'asked', m['vk:early-reply-asked']?.length, 'taken', m['vk:early-reply-taken']?.length, 'dropped', m['vk:early-reply-dropped']?.length);
await kiosk.close();
}
process.exit(0);
