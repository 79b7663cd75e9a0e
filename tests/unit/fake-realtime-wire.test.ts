// The Realtime transcription double against the official `openai` package's WebSocket client:
// if the SDK sends its typed client events and reads every answer (the session, the committed
// buffer, the words, the completed text, the errors) as it reads OpenAI's, the double speaks the
// protocol. Real speech from the audio fixtures, at 24 kHz.

import { connect } from 'node:net';
import OpenAI from 'openai';
import { OpenAIRealtimeWS } from 'openai/realtime/ws';
import type { OpenAIRealtimeError } from 'openai/realtime/internal-base';
import type { RealtimeServerEvent, SessionUpdateEvent } from 'openai/resources/realtime/realtime';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../servers/openai-fakes.ts';
import { loadFixture, recordingOf } from '../support/audio-fixtures.ts';
import { fixtureLine24k, fixtureSpan24k, pcm16Pieces, silencePiece } from '../support/realtime-audio.ts';

let fakes: FakeOpenAI;
const opened: OpenAIRealtimeWS[] = [];

beforeAll(async () => {
  fakes = await startFakeOpenAI();
});
afterAll(() => fakes.close());
beforeEach(() => fakes.reset());
afterEach(() => {
  for (const rt of opened.splice(0)) rt.close();
});

/**
 * A transcription session opened by the SDK. The SDK builds `wss://HOST/v1/realtime?model=…`
 * from the client's base URL: it always asks for TLS and names a model, where a transcription
 * session is opened at `?intent=transcription`. So ws is handed a plain TCP connection to the
 * double (`createConnection`), and the request's path is set to the transcription session's just
 * before it is sent (`finishRequest`); the key, the headers and every event are the SDK's own.
 */
function openTranscription(): { rt: OpenAIRealtimeWS; heard: Heard } {
  const client = new OpenAI({ apiKey: 'test', baseURL: fakes.baseURL });
  const rt = new OpenAIRealtimeWS(
    {
      model: 'gpt-4o-transcribe',
      options: {
        createConnection: () => connect({ host: '127.0.0.1', port: fakes.port }),
        finishRequest: (request) => {
          request.path = '/v1/realtime?intent=transcription';
          request.end();
        },
      },
    },
    client,
  );
  opened.push(rt);
  return { rt, heard: new Heard(rt) };
}

/** Every event the SDK emitted, and waits for the next one of a type. */
class Heard {
  readonly events: RealtimeServerEvent[] = [];
  readonly errors: OpenAIRealtimeError[] = [];
  private readonly read = new Map<string, number>();
  private wake: () => void = () => {};

  constructor(rt: OpenAIRealtimeWS) {
    rt.on('event', (event) => {
      this.events.push(event);
      this.wake();
    });
    rt.on('error', (error) => {
      this.errors.push(error);
      this.wake();
    });
    rt.socket.on('close', () => this.wake());
  }

  /** The next event of `type` not yet taken by an earlier call. */
  async next<T extends RealtimeServerEvent['type']>(type: T): Promise<Extract<RealtimeServerEvent, { type: T }>> {
    for (;;) {
      const from = this.read.get(type) ?? 0;
      const at = this.events.findIndex((event, i) => i >= from && event.type === type);
      if (at >= 0) {
        this.read.set(type, at + 1);
        return this.events[at] as Extract<RealtimeServerEvent, { type: T }>;
      }
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  /** Resolves once an error has reached the SDK's `error` listener. */
  async error(): Promise<OpenAIRealtimeError> {
    while (this.errors.length === 0) await new Promise<void>((resolve) => (this.wake = resolve));
    return this.errors[0]!;
  }

  types(): string[] {
    return this.events.map((event) => event.type);
  }
}

const transcription: SessionUpdateEvent = {
  type: 'session.update',
  session: {
    type: 'transcription',
    audio: { input: { format: { type: 'audio/pcm', rate: 24000 }, transcription: { model: 'gpt-4o-transcribe', language: 'en' }, turn_detection: null } },
  },
};

function whenOpen(rt: OpenAIRealtimeWS): Promise<void> {
  return new Promise((resolve, reject) => {
    rt.socket.once('open', () => resolve());
    rt.socket.once('error', reject);
  });
}

describe('the Realtime transcription double, through the openai package', () => {
  it('opens a transcription session and takes its configuration', async () => {
    const { rt, heard } = openTranscription();
    const created = await heard.next('session.created');
    expect(created.session).toMatchObject({ type: 'transcription', object: 'realtime.transcription_session', audio: { input: { format: { type: 'audio/pcm', rate: 24000 } } } });
    expect(created.event_id).toMatch(/^event_/);
    rt.send(transcription);
    const updated = await heard.next('session.updated');
    expect(updated.session).toMatchObject({ type: 'transcription', audio: { input: { transcription: { model: 'gpt-4o-transcribe', language: 'en' }, turn_detection: null } } });
    expect(fakes.realtime.sessions[0]).toMatchObject({ url: '/v1/realtime?intent=transcription', authorization: 'Bearer test', model: 'gpt-4o-transcribe', language: 'en' });
  });

  it('transcribes a committed line of real speech: committed, the words as deltas, then the completed text', async () => {
    fakes.stt.script([{ text: 'My name is Maria Garcia', minSpeechMs: 800, maxSpeechMs: 2200 }]);
    fakes.realtime.latency({ deltaSpacingMs: 15, finalAfterCommitMs: 120 });
    const { rt, heard } = openTranscription();
    await whenOpen(rt);
    rt.send(transcription);
    const pieces = pcm16Pieces(fixtureLine24k('clinic', 0));
    for (const audio of pieces) rt.send({ type: 'input_audio_buffer.append', audio });
    await fakes.realtime.whenAppended(pieces.length);
    const committedAt = performance.now();
    rt.send({ type: 'input_audio_buffer.commit', event_id: 'commit_1' });

    const committed = await heard.next('input_audio_buffer.committed');
    expect(committed.item_id).toMatch(/^item_/);
    expect(committed.previous_item_id).toBeNull();
    const deltas: string[] = [];
    for (let i = 0; i < 5; i++) {
      const delta = await heard.next('conversation.item.input_audio_transcription.delta');
      expect(delta).toMatchObject({ item_id: committed.item_id, content_index: 0 });
      deltas.push(delta.delta ?? '');
    }
    expect(deltas).toEqual(['My', ' name', ' is', ' Maria', ' Garcia']);
    const completed = await heard.next('conversation.item.input_audio_transcription.completed');
    expect(performance.now() - committedAt).toBeGreaterThanOrEqual(100);
    expect(completed).toMatchObject({ item_id: committed.item_id, content_index: 0, transcript: 'My name is Maria Garcia', usage: { type: 'duration' } });
    const done = await heard.next('conversation.item.done');
    expect(done.item).toMatchObject({ id: committed.item_id, type: 'message', role: 'user' });
    expect(heard.types().indexOf('conversation.item.added')).toBeLessThan(heard.types().indexOf('conversation.item.input_audio_transcription.delta'));

    const [commit] = fakes.realtime.commits;
    expect(commit).toMatchObject({ session: 0, itemId: committed.item_id, appends: pieces.length, clears: 0, transcript: 'My name is Maria Garcia' });
    expect(commit!.audioMs).toBeGreaterThan(1500);
    expect(commit!.speechMs).toBeGreaterThan(800);
    expect(commit!.firstAppendBeforeCommitMs).toBeGreaterThanOrEqual(0);
    expect(fakes.stt.pending).toEqual([]);
  });

  it('answers each commit of one socket in turn, linking the items, and clears a buffer on request', async () => {
    fakes.stt.script([{ text: 'yes' }, { text: 'I am here to collect a prescription' }]);
    const { rt, heard } = openTranscription();
    await whenOpen(rt);
    rt.send(transcription);
    for (const audio of pcm16Pieces(fixtureLine24k('clinic', 2))) rt.send({ type: 'input_audio_buffer.append', audio });
    rt.send({ type: 'input_audio_buffer.commit' });
    rt.send({ type: 'input_audio_buffer.append', audio: silencePiece(400) });
    rt.send({ type: 'input_audio_buffer.clear' });
    await heard.next('input_audio_buffer.cleared');
    for (const audio of pcm16Pieces(fixtureLine24k('clinic', 3))) rt.send({ type: 'input_audio_buffer.append', audio });
    rt.send({ type: 'input_audio_buffer.commit' });
    const first = await heard.next('conversation.item.input_audio_transcription.completed');
    const second = await heard.next('conversation.item.input_audio_transcription.completed');
    expect([first.transcript, second.transcript]).toEqual(['yes', 'I am here to collect a prescription']);
    const committed = [await heard.next('input_audio_buffer.committed'), await heard.next('input_audio_buffer.committed')];
    expect(committed[1]!.previous_item_id).toBe(committed[0]!.item_id);
    expect(fakes.realtime.commits.map((c) => c.clears)).toEqual([0, 1]);
    expect(fakes.realtime.sessions[0]!.clears).toBe(1);
  });

  it('hearing a recording, answers each commit with the words its audio holds: a line cut at its pause gets the words before it, then those after', async () => {
    const fixture = loadFixture('paused-people');
    fakes.stt.hear(recordingOf(fixture));
    const { rt, heard } = openTranscription();
    await whenOpen(rt);
    rt.send(transcription);
    // "two nine three … four zero", cut in its pause as the kiosk's early start cuts it, each stretch with the silence a page sends around it.
    const line = fixture.lines[2]!;
    const pause = line.pauses![0]!;
    const cut = (pause.startMs + pause.endMs) / 2;
    for (const [from, to] of [[line.startMs - 300, cut], [cut, line.endMs + 300]] as const) {
      for (const audio of pcm16Pieces(fixtureSpan24k('paused-people', from, to))) rt.send({ type: 'input_audio_buffer.append', audio });
      rt.send({ type: 'input_audio_buffer.commit' });
    }
    const first = await heard.next('conversation.item.input_audio_transcription.completed');
    const second = await heard.next('conversation.item.input_audio_transcription.completed');
    expect([first.transcript, second.transcript]).toEqual(['two nine three', 'four zero']);
  });

  it('refuses a commit of less than 100 ms, another session type and unknown events, as OpenAI does', async () => {
    const { rt, heard } = openTranscription();
    await whenOpen(rt);
    rt.send(transcription);
    rt.send({ type: 'input_audio_buffer.append', audio: silencePiece(40) });
    rt.send({ type: 'input_audio_buffer.commit', event_id: 'too_soon' });
    const empty = await heard.next('error');
    expect(empty.error).toMatchObject({ type: 'invalid_request_error', code: 'input_audio_buffer_commit_empty', event_id: 'too_soon' });
    expect((await heard.error()).error?.code).toBe('input_audio_buffer_commit_empty');

    rt.send({ type: 'session.update', session: { type: 'realtime', model: 'gpt-realtime' } });
    expect((await heard.next('error')).error).toMatchObject({ code: 'invalid_value', param: 'session.type' });
    rt.send({ type: 'response.create' });
    expect((await heard.next('error')).error).toMatchObject({ code: 'invalid_value', param: 'type' });
    rt.send({ type: 'session.update', session: { type: 'transcription', audio: { input: { format: { type: 'audio/pcmu' } } } } });
    expect((await heard.next('error')).error).toMatchObject({ code: 'invalid_value', param: 'session.audio.input.format' });
    expect(fakes.realtime.sessions[0]!.errors).toEqual(['input_audio_buffer_commit_empty', 'invalid_value', 'invalid_value', 'invalid_value']);
    expect(fakes.realtime.commits).toEqual([]);
  });

  it('refuses a session.update without a transcription model', async () => {
    const { rt, heard } = openTranscription();
    await whenOpen(rt);
    rt.send({ type: 'session.update', session: { type: 'transcription', audio: { input: { turn_detection: null } } } });
    expect((await heard.next('error')).error).toMatchObject({ code: 'missing_required_parameter', param: 'session.audio.input.transcription.model' });
    expect(fakes.realtime.sessions[0]!.model).toBeUndefined();
  });

  it('refuses an opening with 401 when told to, which the SDK reports as an error', async () => {
    fakes.realtime.failUpgrade(401, 1);
    const { heard } = openTranscription();
    expect((await heard.error()).message).toContain('401');
    expect(fakes.realtime.sessions).toEqual([]);
  });

  it('cuts a socket after the next append when told to, keeping the record', async () => {
    fakes.realtime.drop('append');
    const { rt } = openTranscription();
    await whenOpen(rt);
    const closed = new Promise<number>((resolve) => rt.socket.once('close', (code) => resolve(code)));
    rt.send(transcription);
    rt.send({ type: 'input_audio_buffer.append', audio: silencePiece(100) });
    expect(await closed).toBe(1006);
    await fakes.realtime.whenClosed(1);
    expect(fakes.realtime.sessions[0]).toMatchObject({ dropped: 'append', appends: 1, closed: true });
  });
});
