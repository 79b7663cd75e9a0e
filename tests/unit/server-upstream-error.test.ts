// How the proxy words an upstream's error for the page: the message found in the usual body
// shapes, every trace of the key removed, and a cap on the length.

import { describe, expect, it } from 'vitest';
import { MAX_ERROR_MESSAGE, scrubSecret, upstreamError } from '../../server/upstream-error.ts';

const KEY = 'sk-proj-Zq7XvB2mK9wLr4TnY8cHf3Dj';

describe('scrubSecret', () => {
  it.each([
    ['the whole key', `Bearer ${KEY} is not valid`],
    ['a masked echo', 'Incorrect API key provided: sk-proj-********************3Dj. See your account.'],
    ['the tail alone', `key ending in ${KEY.slice(-6)} was revoked`],
    ['a piece inside a longer token', `token=xx${KEY.slice(10, 18)}yy rejected`],
  ])('removes %s', (_, text) => {
    const out = scrubSecret(text, KEY);
    expect(out).toContain('[redacted]');
    for (let i = 0; i + 4 <= KEY.length; i++) expect(out).not.toContain(KEY.slice(i, i + 4));
  });

  it('leaves ordinary words alone', () => {
    expect(scrubSecret('You exceeded your current quota, please check your plan.', KEY)).toBe(
      'You exceeded your current quota, please check your plan.',
    );
  });

  it('removes only exact copies of a short key', () => {
    expect(scrubSecret('key abc is wrong; abcd too', 'abc')).toBe('key [redacted] is wrong; [redacted]d too');
  });

  it('changes nothing without a key', () => {
    expect(scrubSecret('anything', undefined)).toBe('anything');
  });

  it('removes any other sk-… key, masked or not, with or without a key of its own, and leaves a short sk- word', () => {
    for (const key of [KEY, 'abc', undefined]) {
      expect(scrubSecret('Keys sk-live-Aa11Bb22Cc33 and sk-wxyz****9876 failed; sk-learn did not', key)).toBe('Keys [redacted] and [redacted] failed; sk-learn did not');
    }
  });
});

describe('upstreamError', () => {
  it("reads OpenAI's error shape and keeps a short code", () => {
    const body = JSON.stringify({ error: { message: `Incorrect API key provided: ${KEY}.`, type: 'invalid_request_error', code: 'invalid_api_key' } });
    expect(upstreamError(401, body, KEY)).toEqual({
      message: 'Incorrect API key provided: [redacted].',
      type: 'upstream_error',
      code: 'invalid_api_key',
    });
  });

  it.each([
    ['a FastAPI detail', JSON.stringify({ detail: 'Model not found' }), 'Model not found'],
    ['a FastAPI validation list', JSON.stringify({ detail: [{ msg: 'field required' }, { msg: 'bad voice' }] }), 'field required; bad voice'],
    ['a plain error string', JSON.stringify({ error: 'overloaded' }), 'overloaded'],
    ['plain text', 'Bad Gateway\n', 'Bad Gateway'],
    ['an empty body', '', 'HTTP 500'],
  ])('reads %s', (_, body, message) => {
    expect(upstreamError(500, body, KEY).message).toBe(message);
  });

  it(`caps the message at ${MAX_ERROR_MESSAGE} characters`, () => {
    const { message } = upstreamError(500, 'word '.repeat(1000), KEY);
    expect(message.length).toBe(MAX_ERROR_MESSAGE);
    expect(message.endsWith('…')).toBe(true);
  });

  it('drops a code that carries the key', () => {
    const body = JSON.stringify({ error: { message: 'no', code: KEY } });
    expect(upstreamError(401, body, KEY)).toEqual({ message: 'no', type: 'upstream_error' });
  });
});
