// The official OpenAI client, pointed at one OpenAI-compatible base URL. In the page that is the
// kiosk server's proxy (which adds the real key); in tests it is a local fake.

import OpenAI from 'openai';

/** What the client sends as its key: the proxy replaces it, so it is never a secret. */
export const PLACEHOLDER_KEY = 'set-by-proxy';

/** A client for `baseURL` (e.g. `http://127.0.0.1:4173/api/llm`), with no retries of its own. */
export function createOpenAIClient(baseURL: string | URL): OpenAI {
  return new OpenAI({
    baseURL: String(baseURL).replace(/\/+$/, ''),
    apiKey: PLACEHOLDER_KEY,
    // Explicit nulls stop the client reading OPENAI_ORG_ID / OPENAI_PROJECT_ID from a Node env.
    organization: null,
    project: null,
    dangerouslyAllowBrowser: true,
    maxRetries: 0,
    // The adapters turn every failure into a ServiceError; the client need not log them too.
    logLevel: 'off',
  });
}

/** The absolute base URL of one of the page's own API paths (`API.llm` and so on). */
export function serviceBaseURL(path: string, origin: string): string {
  return new URL(path, origin).href;
}
