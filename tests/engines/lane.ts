// What an engine lane runs against: the production build on two kiosk servers of its own, with
// the local test doubles of the outside services (tests/servers), and one page of the engine.
//
// - the kiosk: the speech double for the kiosk's voice (audio guidance reads through it), the
//   built-in assistant, the local clinic service for the clinic flow's actions, an operator PIN;
//   reached through a switch that can take the network away (`network(false)`: every connection
//   refused, as a cable pulled), for the offline tests;
// - the voice kiosk: the transcription double as well, so that the kiosk listens.

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type RunningServer } from '../../server/app.ts';
import { startClinicService, type ClinicService } from '../servers/clinic-service.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../servers/openai-fakes.ts';
import { testConfig } from '../support/test-config.ts';
import { emptyTestMemory } from '../support/test-memory.ts';
import type { EngineName, EnginePage } from './engine.ts';
import { openFirefox } from './firefox.ts';
import { openWebKit } from './webkit.ts';

export const OPERATOR_PIN = '482913';
const CLINIC_TOKEN = 'engine-lane-clinic-token';

/** The screen the lanes use: a 10-inch tablet held landscape (1280×800). */
export const TABLET = { width: 1280, height: 800 };

export interface Lane {
  engine: EngineName;
  page: EnginePage;
  /** the kiosk's address (through the network switch) */
  url: string;
  /** the voice kiosk's address */
  voiceUrl: string;
  fakes: FakeOpenAI;
  clinic: ClinicService;
  /** takes the network away (false) or gives it back (true) */
  network(on: boolean): void;
  /** another page of the engine, on a machine with no audio output at all (Firefox only) */
  withoutAudio(): Promise<EnginePage>;
  close(): Promise<void>;
}

/** A TCP relay to `port` that refuses every connection, and cuts the open ones, while off. */
async function networkSwitch(port: number): Promise<{ url: string; set(on: boolean): void; close(): Promise<void> }> {
  let on = true;
  const open = new Set<Socket>();
  const relay = createServer((client) => {
    if (!on) return void client.destroy();
    const upstream = new Socket();
    for (const s of [client, upstream]) {
      open.add(s);
      s.on('close', () => open.delete(s));
      s.on('error', () => s.destroy());
    }
    upstream.connect(port, '127.0.0.1');
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  const { port: own } = relay.address() as { port: number };
  return {
    url: `http://127.0.0.1:${own}`,
    set: (value) => {
      on = value;
      if (!on) for (const s of open) s.destroy();
    },
    close: () => {
      for (const s of open) s.destroy();
      return new Promise((resolve) => relay.close(() => resolve()));
    },
  };
}

/**
 * The audio output of a kiosk with speakers, for Firefox, which runs no AudioContext without one
 * (WebKitGTK plays into GStreamer's, whatever the machine has): PulseAudio with a null sink, on
 * a socket of the lane's own. Resolves with the environment that points Firefox at it.
 */
async function startSoundServer(): Promise<{ env: NodeJS.ProcessEnv; stop(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'voice-kiosk-pulse-'));
  const socket = join(dir, 'native');
  const env = { ...process.env, XDG_RUNTIME_DIR: dir, HOME: dir };
  const child = spawn(
    'pulseaudio',
    ['--daemonize=no', '-n', '--exit-idle-time=-1', '--disallow-exit', '--log-target=stderr', '--load=module-null-sink sink_name=kiosk', `--load=module-native-protocol-unix socket=${socket}`],
    { env, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let output = '';
  child.stderr.on('data', (d: Buffer) => void (output = (output + d.toString()).slice(-2000)));
  const deadline = Date.now() + 20_000;
  while (!existsSync(socket)) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill();
      throw new Error(`PulseAudio did not start: ${output}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    env: { ...process.env, PULSE_SERVER: `unix:${socket}` },
    stop: async () => {
      child.kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** No sound server and no sound card that Firefox could find: a kiosk whose audio output is missing. */
const NO_AUDIO: NodeJS.ProcessEnv = { ...process.env, PULSE_SERVER: 'unix:/nonexistent/voice-kiosk-no-sound', ALSA_CONFIG_PATH: '/dev/null' };

/** Starts the lane's servers and opens the engine's page. */
export async function openLane(engine: EngineName): Promise<Lane> {
  const closers: (() => Promise<unknown>)[] = [];
  const close = async () => {
    for (const c of closers.reverse()) await c().catch(() => undefined);
  };
  try {
    const fakes = await startFakeOpenAI();
    closers.push(() => fakes.close());
    const clinic = await startClinicService({ token: CLINIC_TOKEN });
    closers.push(() => clinic.close());
    const tts = { TTS_BASE_URL: fakes.baseURL, TTS_MODEL: 'test-tts', TTS_VOICE: 'test-voice', TTS_API_KEY: 'sk-test-tts' };
    const kiosk = await startServer({
      root: 'dist',
      config: testConfig({
        ...tts,
        OPERATOR_PIN,
        ACTION_ORIGIN_CLINIC: clinic.url,
        ACTION_SECRET_CLINIC_TOKEN: CLINIC_TOKEN,
        ACTION_SECRET_CLINIC_TOKEN_ORIGINS: clinic.url,
      }),
      host: '127.0.0.1',
      port: 0,
      quiet: true,
      memory: await emptyTestMemory(),
    });
    closers.push(() => kiosk.close());
    const voice: RunningServer = await startServer({
      root: 'dist',
      config: testConfig({ ...tts, STT_BASE_URL: fakes.baseURL, STT_MODEL: 'test-whisper', STT_API_KEY: 'sk-test-stt' }),
      host: '127.0.0.1',
      port: 0,
      quiet: true,
      memory: await emptyTestMemory(),
    });
    closers.push(() => voice.close());
    const network = await networkSwitch(Number(new URL(kiosk.url).port));
    closers.push(() => network.close());
    let env: NodeJS.ProcessEnv | undefined;
    if (engine === 'firefox') {
      const sound = await startSoundServer();
      closers.push(() => sound.stop());
      env = sound.env;
    }
    const page = engine === 'webkit' ? await openWebKit(TABLET) : await openFirefox({ viewport: TABLET, ...(env ? { env } : {}) });
    closers.push(() => page.close());
    const withoutAudio = async () => {
      if (engine !== 'firefox') throw new Error('only the Firefox lane opens a page without audio');
      const quiet = await openFirefox({ viewport: TABLET, env: NO_AUDIO });
      closers.push(() => quiet.close());
      return quiet;
    };
    return { engine, page, url: network.url, voiceUrl: voice.url, fakes, clinic, network: (on) => network.set(on), withoutAudio, close };
  } catch (error) {
    await close();
    throw error;
  }
}
