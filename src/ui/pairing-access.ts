// The page's side of pairing (server/pairing-route.ts): the server's refusal of a device it has
// not paired, seen on any /api/ answer, and the code typed on the pairing screen sent for the
// server to check. The credential the server then sets is a cookie the page cannot read.

/** Why the server refuses this device: never paired, or its pairing revoked. */
export type PairingNeed = 'not_paired' | 'device_revoked';

/** What the server said to a code. */
export type PairAnswer =
  | { ok: true; device: string }
  | { ok: false; reason: 'invalid_code' | 'name_taken' }
  | { ok: false; reason: 'wrong_code' | 'code_used' | 'code_expired'; triesLeft: number }
  | { ok: false; reason: 'locked'; retryAfterSeconds: number }
  | { ok: false; reason: 'unreachable'; detail: string };

const NEEDS: readonly string[] = ['not_paired', 'device_revoked'] satisfies PairingNeed[];

/** The need a refused answer of the kiosk's /api/ says, read from a copy of it (the caller gets the answer untouched). */
export async function pairingNeed(response: Response): Promise<PairingNeed | null> {
  if (response.status !== 401) return null;
  try {
    const body = (await response.clone().json()) as { error?: { type?: unknown } };
    const type = body.error?.type;
    return typeof type === 'string' && NEEDS.includes(type) ? (type as PairingNeed) : null;
  } catch {
    return null;
  }
}

/** Whether `url` is an address of the kiosk's own /api/ (on `origin`). */
function isOwnApi(url: string, origin: string): boolean {
  try {
    const parsed = new URL(url, origin);
    return parsed.origin === origin && parsed.pathname.startsWith('/api/');
  } catch {
    return false;
  }
}

/**
 * `fetcher`, watched: every answer of the kiosk's own /api/ that refuses this device is told to
 * `refused` (whoever made the request still gets the answer as it came). The composition root
 * makes the page's fetch this, so that no part of the kiosk (the model's client, the actions,
 * the flows) need know of pairing for the pairing screen to come up.
 */
export function watchPairing(fetcher: typeof fetch, origin: string, refused: (need: PairingNeed) => void): typeof fetch {
  return async (input, init) => {
    const response = await fetcher(input, init);
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (response.status === 401 && isOwnApi(url, origin)) {
      void pairingNeed(response).then((need) => need && refused(need));
    }
    return response;
  };
}

/** Sends the code typed on the pairing screen. */
export async function pairDevice(code: string, fetcher: typeof fetch = fetch): Promise<PairAnswer> {
  let response: Response;
  let body: { ok?: unknown; device?: unknown; error?: unknown; tries_left?: unknown; retry_after_seconds?: unknown };
  try {
    response = await fetcher('/api/pairing', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ code }),
    });
    body = (await response.json()) as typeof body;
  } catch (error) {
    return { ok: false, reason: 'unreachable', detail: (error as Error).message };
  }
  if (response.ok && body.ok === true) return { ok: true, device: String(body.device ?? '') };
  switch (body.error) {
    case 'wrong_code':
    case 'code_used':
    case 'code_expired':
      return { ok: false, reason: body.error, triesLeft: Number(body.tries_left) || 0 };
    case 'locked':
      return { ok: false, reason: 'locked', retryAfterSeconds: Number(body.retry_after_seconds) || 0 };
    case 'invalid_code':
    case 'name_taken':
      return { ok: false, reason: body.error };
  }
  return { ok: false, reason: 'unreachable', detail: `the server answered ${response.status}` };
}
