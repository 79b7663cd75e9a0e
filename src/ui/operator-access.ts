// The page's side of the operator PIN (server/operator.ts): asks whether a PIN is set, and sends
// the PIN typed on the kiosk for the server to say yes or no. The page keeps neither.

import { words, type Words } from './i18n/words.ts';

/** Whether the operator panel can be opened, as the server says. */
export type OperatorStatus = { pinSet: boolean; lockedForSeconds: number } | { unreachable: string };

/** What the server said to a PIN. */
export type UnlockAnswer =
  | { ok: true }
  | { ok: false; reason: 'wrong_pin'; triesLeft: number }
  | { ok: false; reason: 'locked'; retryAfterSeconds: number }
  | { ok: false; reason: 'no_pin' }
  | { ok: false; reason: 'unreachable'; detail: string };

export async function operatorStatus(fetcher: typeof fetch = fetch): Promise<OperatorStatus> {
  try {
    const response = await fetcher('/api/operator', { headers: { accept: 'application/json' } });
    if (!response.ok) return { unreachable: `the server answered ${response.status}` };
    const body = (await response.json()) as { pin_set?: unknown; locked_for_seconds?: unknown };
    return { pinSet: body.pin_set === true, lockedForSeconds: typeof body.locked_for_seconds === 'number' ? body.locked_for_seconds : 0 };
  } catch (error) {
    return { unreachable: (error as Error).message };
  }
}

export async function unlockOperator(pin: string, fetcher: typeof fetch = fetch): Promise<UnlockAnswer> {
  let response: Response;
  let body: { error?: unknown; tries_left?: unknown; retry_after_seconds?: unknown };
  try {
    response = await fetcher('/api/operator/unlock', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ pin }),
    });
    body = (await response.json()) as typeof body;
  } catch (error) {
    return { ok: false, reason: 'unreachable', detail: (error as Error).message };
  }
  if (response.ok) return { ok: true };
  if (body.error === 'wrong_pin') return { ok: false, reason: 'wrong_pin', triesLeft: Number(body.tries_left) || 0 };
  if (body.error === 'locked') return { ok: false, reason: 'locked', retryAfterSeconds: Number(body.retry_after_seconds) || 0 };
  if (body.error === 'no_pin') return { ok: false, reason: 'no_pin' };
  return { ok: false, reason: 'unreachable', detail: `the server answered ${response.status}` };
}

/** That the PIN pad is locked, and for how long ("5 minutes", "40 seconds"), for the operator. */
export function lockedWords(seconds: number): Words {
  return seconds >= 90 ? words('operator.lockedMinutes', { minutes: Math.ceil(seconds / 60) }) : words('operator.lockedSeconds', { seconds });
}
