// `npm run bench:voice`: the voice path's latencies, measured in the real kiosk (dist/) in
// headless Chromium whose microphone plays espeak-ng fixtures, through the kiosk's server and the
// local OpenAI doubles, from the page's `vk:*` performance marks. Prints a table per figure and
// what to read it with; exits 1 only when the measurement itself failed.
//
//   npm run bench:voice -- [--runs N] [--only free,dictated,visit,barge-in,reply,cold,cutoffs]
//   N runs of each scenario (default 2; at least 5 cold starts); --only runs some of them

import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { CHROMIUM } from '../tests/e2e/support/chromium.ts';
import { Findings } from './voice-findings.ts';
import { bargeInToSilence, coldStartReport, endOfSpeech, firstSentence, pageLoad, transcriptToScreen } from './voice-report.ts';
import { coldStart } from './voice-cold-start.ts';
import { bargeIn, dictatedNumber, freeAnswers, spokenVisit } from './voice-scenarios.ts';
import { replyLatency } from './voice-latency.ts';
import { replyReport } from './voice-reply-report.ts';
import { falseCutoffs } from './voice-cutoffs.ts';
import { cutoffReport } from './voice-cutoffs-report.ts';

const DEFAULT_RUNS = 2;

/** The fewest cold starts measured, whatever --runs says: a p95 wants a few. */
const COLD_RUNS = 5;

/** The scenarios by the name --only takes, in the order they run. */
const SCENARIOS = { free: freeAnswers, dictated: dictatedNumber, visit: spokenVisit, 'barge-in': bargeIn, reply: replyLatency, cold: (runs: number, f: Findings) => coldStart(Math.max(runs, COLD_RUNS), f), cutoffs: falseCutoffs };
type ScenarioName = keyof typeof SCENARIOS;

function usage(problem: string): never {
  console.error(`bench:voice: ${problem}\nusage: tsx bench/voice.bench.ts [--runs N] [--only ${Object.keys(SCENARIOS).join(',')}]`);
  process.exit(2);
}

function parseArgs(argv: readonly string[]): { runs: number; only: ScenarioName[] } {
  const options = new Map<string, string>();
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i]!, argv[i + 1]];
    if (flag !== '--runs' && flag !== '--only') usage(`unknown argument ${JSON.stringify(flag)}`);
    if (value === undefined) usage(`${flag} wants a value`);
    options.set(flag, value);
  }
  const runs = Number(options.get('--runs') ?? DEFAULT_RUNS);
  if (!Number.isInteger(runs) || runs < 1) usage(`--runs wants a whole number of at least 1, not ${JSON.stringify(options.get('--runs'))}`);
  const only = (options.get('--only')?.split(',') ?? Object.keys(SCENARIOS)) as ScenarioName[];
  const wrong = only.find((n) => !(n in SCENARIOS));
  if (wrong !== undefined) usage(`no scenario ${JSON.stringify(wrong)}`);
  return { runs, only };
}

function chromiumVersion(): string {
  try {
    return execFileSync(CHROMIUM, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return `Chromium at ${CHROMIUM} (version unknown)`;
  }
}

/** What each scenario prints, as soon as it has run: a long run shows its figures as it goes. */
const REPORTS: Record<ScenarioName, (findings: Findings) => void> = {
  free: endOfSpeech,
  dictated: endOfSpeech,
  visit: (findings) => {
    transcriptToScreen(findings);
    firstSentence(findings);
  },
  'barge-in': bargeInToSilence,
  reply: replyReport,
  cold: coldStartReport,
  cutoffs: cutoffReport,
};

async function main(): Promise<void> {
  const { runs, only } = parseArgs(process.argv.slice(2));
  const load = () => os.loadavg().map((x) => x.toFixed(2)).join(' ');
  console.log(`Node ${process.version} | ${os.cpus()[0]?.model ?? 'unknown CPU'} | ${os.cpus().length} CPUs | ${chromiumVersion()}`);
  console.log(`load average at start: ${load()} | ${runs} run(s) of ${only.join(', ')} | the kiosk from dist/ (built by npm run bench:voice)`);
  const findings = new Findings();
  const took: string[] = [];
  const ran = new Set<ScenarioName>();
  for (const name of only) {
    const t0 = Date.now();
    await SCENARIOS[name](runs, findings);
    took.push(`${name} ${((Date.now() - t0) / 1000).toFixed(0)} s`);
    ran.add(name);
    // The end of speech of free and dictated answers is one table: printed once both asked for have run.
    const other = name === 'free' ? 'dictated' : name === 'dictated' ? 'free' : null;
    if (other && only.includes(other) && !ran.has(other)) continue;
    REPORTS[name](findings);
    console.log(`(${took.at(-1)})`);
  }
  if (only.some((name) => name !== 'cold')) pageLoad(findings);
  console.log(`\ntook ${took.join(', ')}; load average at the end: ${load()}`);
  if (findings.failures.length > 0) {
    console.error(`\nbench:voice: the measurement failed:\n${findings.failures.map((x) => `  - ${x}`).join('\n')}`);
    process.exit(1);
  }
  // Done: a double's or a browser's last handle must not keep the command waiting.
  process.exit(0);
}

main().catch((error: unknown) => {
  console.error(`bench:voice: ${(error as Error).stack ?? String(error)}`);
  process.exit(1);
});
