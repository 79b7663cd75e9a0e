// Fetching a flow file from an address for the page: a time limit, a size limit, no redirect
// followed (it could lead off the allowed origins), and a plain reason when it fails, with whether
// trying later might work (then the last good copy stands in).

/** The largest flow file read. */
export const MAX_FLOW_BYTES = 1024 * 1024;

export type FlowFetch = { text: string } | { failed: string; transient: boolean; status: 'timeout' | 'unreachable' | 'refused' };

/** Statuses that say "not now" rather than "not here". */
const transientStatus = (status: number) => status >= 500 || status === 408 || status === 429;

/** Fetches the flow at `url` within `timeoutMs`. Never rejects. */
export async function fetchFlow(url: URL, timeoutMs: number): Promise<FlowFetch> {
  try {
    const response = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(timeoutMs), headers: { accept: 'text/yaml, application/yaml, text/plain;q=0.9, */*;q=0.1' } });
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel();
      return { failed: `${url.origin} answered ${response.status}, a redirect, which is never followed for a flow: give the address it points to`, transient: false, status: 'refused' };
    }
    if (!response.ok) {
      await response.body?.cancel();
      const transient = transientStatus(response.status);
      return { failed: `${url.origin} answered ${response.status} ${response.statusText}`.trim(), transient, status: transient ? 'unreachable' : 'refused' };
    }
    // Web servers that answer every path with a site's page (as single-page hosts do) say 200.
    if ((response.headers.get('content-type') ?? '').includes('text/html')) {
      await response.body?.cancel();
      return { failed: 'the address gave a web page, not a flow file (is the path right?)', transient: false, status: 'refused' };
    }
    const text = await readLimited(response);
    if (text === null) return { failed: `the flow file is larger than ${MAX_FLOW_BYTES / 1024} KB`, transient: false, status: 'refused' };
    return { text };
  } catch (error) {
    if ((error as Error).name === 'TimeoutError') {
      return { failed: `${url.origin} did not answer within ${Math.round(timeoutMs / 1000)} s`, transient: true, status: 'timeout' };
    }
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    return { failed: `${url.origin} could not be reached${cause ? ` (${cause})` : ''}`, transient: true, status: 'unreachable' };
  }
}

/** The body as text, or null past the size limit. */
async function readLimited(response: Response): Promise<string | null> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_FLOW_BYTES) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
