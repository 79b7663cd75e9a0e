// Local stand-ins for OpenAI's chat, transcription and speech endpoints, and its Realtime
// transcription sessions (a WebSocket), on one HTTP server, speaking OpenAI's exact wire
// formats. For unit, browser and benchmark runs; also a CLI:
// `tsx tests/servers/openai-fakes.ts [port]` serves them until stopped.

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { FakeChat } from './fake-chat.ts';
import { FakeRealtime } from './fake-realtime.ts';
import { readBody, sendError } from './fake-http.ts';
import { FakeSpeech } from './fake-speech.ts';
import { FakeTranscriptions } from './fake-transcriptions.ts';

export type { ChatFailure, ChatRule } from './fake-chat.ts';
export type { OutageMode } from './fake-http.ts';
export type { SttEntry, SttRequest } from './fake-transcriptions.ts';
export type { DropHow, RealtimeCommit, RealtimeLatency, RealtimeSessionRecord, UpgradeFailure } from './fake-realtime.ts';
export type { TtsRequest } from './fake-speech.ts';
export { FakeChat, FakeRealtime, FakeSpeech, FakeTranscriptions };

/** A running set of fakes. */
export interface FakeOpenAI {
  /** `http://127.0.0.1:PORT/v1`, the base URL an OpenAI client takes */
  baseURL: string;
  port: number;
  llm: FakeChat;
  stt: FakeTranscriptions;
  /** `ws://127.0.0.1:PORT/v1/realtime?intent=transcription`, answered from `stt`'s script */
  realtime: FakeRealtime;
  tts: FakeSpeech;
  /** clears every script, failure, record and setting */
  reset(): void;
  /** stops the server, cutting any answer still open */
  close(): Promise<void>;
}

export interface FakeOpenAIOptions {
  /** 0 (the default) takes a free port */
  port?: number;
}

/** Starts the fakes on 127.0.0.1. */
export async function startFakeOpenAI(options: FakeOpenAIOptions = {}): Promise<FakeOpenAI> {
  const llm = new FakeChat();
  const stt = new FakeTranscriptions();
  const tts = new FakeSpeech();
  const realtime = new FakeRealtime(stt);
  const route = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    // Browsers may call the fakes from another origin in manual runs.
    res.setHeader('access-control-allow-origin', '*');
    if (req.method === 'OPTIONS') {
      res.writeHead(204, { 'access-control-allow-headers': '*', 'access-control-allow-methods': 'POST, OPTIONS' });
      return void res.end();
    }
    const path = new URL(req.url ?? '/', 'http://fake.invalid').pathname;
    const service = { '/v1/chat/completions': 'llm', '/v1/audio/transcriptions': 'stt', '/v1/audio/speech': 'tts' }[path];
    if (!service) return sendError(res, 404, `Invalid URL (${req.method} ${path})`, { code: 'unknown_url' });
    if (req.method !== 'POST') return sendError(res, 405, `Invalid method for URL (${req.method} ${path})`, { code: 'method_not_supported' });
    const body = await readBody(req);
    if (service === 'llm') return llm.handle(res, body);
    if (service === 'stt') return stt.handle(res, body, req.headers['content-type'] ?? '');
    return tts.handle(res, body);
  };
  const server = createServer((req, res) => {
    route(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendError(res, 500, `The fake failed: ${(error as Error).message}`, { type: 'server_error' });
      else res.destroy();
    });
  });
  server.on('upgrade', (req, socket, head) => realtime.upgrade(req, socket, head));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    port,
    llm,
    stt,
    realtime,
    tts,
    reset() {
      llm.reset();
      stt.reset();
      realtime.reset();
      tts.reset();
    },
    close() {
      return new Promise((resolve, reject) => {
        // Upgraded sockets are no longer the HTTP server's connections: they are cut here.
        realtime.closeSockets();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
    },
  };
}

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (isMain) {
  const port = Number(process.argv[2] ?? 0);
  const fakes = await startFakeOpenAI({ port: Number.isInteger(port) ? port : 0 });
  console.log(`fake OpenAI at ${fakes.baseURL} (chat/completions, audio/transcriptions, audio/speech, realtime?intent=transcription); Ctrl-C stops it`);
  const stop = () => void fakes.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
