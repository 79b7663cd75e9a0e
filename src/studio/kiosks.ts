// The studio's side of the server's studio routes (server/studio-route.ts): what the server allows
// (a flow folder for the kiosks, whether this page is on the server's own machine, whether a PIN
// is set), opening a flow of that folder, and saving one there, with the server's own checks.

import type { Diagnostic } from '../engine/language/diagnostics.ts';

export type KiosksStatus = { folder: boolean; flows: string[]; fromThisMachine: boolean; pinSet: boolean } | { unreachable: string };

export type SaveAnswer =
  | { ok: true; saved: string }
  | { ok: false; error: string; message: string; diagnostics?: Diagnostic[]; triesLeft?: number };

async function json(response: Response): Promise<Record<string, unknown>> {
  try {
    return (await response.json()) as Record<string, unknown>;
  } catch {
    return {};
  }
}

export async function kiosksStatus(fetcher: typeof fetch = fetch): Promise<KiosksStatus> {
  try {
    const response = await fetcher('/api/studio', { headers: { accept: 'application/json' } });
    const body = await json(response);
    if (!response.ok) return { unreachable: `the server answered ${response.status}` };
    return { folder: body['folder'] === true, flows: Array.isArray(body['flows']) ? body['flows'].map(String) : [], fromThisMachine: body['from_this_machine'] === true, pinSet: body['pin_set'] === true };
  } catch (error) {
    return { unreachable: (error as Error).message };
  }
}

/** Saves `text` as `name` in the kiosks' flow folder; the server checks it again and refuses one with errors. */
export async function saveForKiosks(name: string, text: string, pin: string | null, fetcher: typeof fetch = fetch): Promise<SaveAnswer> {
  try {
    const response = await fetcher(`/api/studio/flows/${encodeURIComponent(name)}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ text, ...(pin ? { pin } : {}) }),
    });
    const body = await json(response);
    if (response.ok && typeof body['saved'] === 'string') return { ok: true, saved: body['saved'] };
    return {
      ok: false,
      error: typeof body['error'] === 'string' ? body['error'] : 'failed',
      message: typeof body['message'] === 'string' ? body['message'] : `the server answered ${response.status}`,
      ...(Array.isArray(body['diagnostics']) ? { diagnostics: body['diagnostics'] as Diagnostic[] } : {}),
      ...(typeof body['tries_left'] === 'number' ? { triesLeft: body['tries_left'] } : {}),
    };
  } catch (error) {
    return { ok: false, error: 'unreachable', message: (error as Error).message };
  }
}

/** A flow of the kiosks' folder, to open in the studio. */
export async function openFromKiosks(name: string, fetcher: typeof fetch = fetch): Promise<{ text: string } | { problem: string }> {
  try {
    const response = await fetcher(`/api/studio/flows/${encodeURIComponent(name)}`, { headers: { accept: 'application/json' } });
    const body = await json(response);
    if (response.ok && typeof body['text'] === 'string') return { text: body['text'] };
    return { problem: typeof body['message'] === 'string' ? body['message'] : `the server answered ${response.status}` };
  } catch (error) {
    return { problem: (error as Error).message };
  }
}
