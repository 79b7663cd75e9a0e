// Whether the page is being left (a reload, a navigation, the tab closing). When it is, the
// browser cancels the page's requests, and a cancelled action request is not a failed action: the
// answer is asked for after the reload (`GET /api/actions/<id>`). Reporting it as failed would
// move the visit to its failure path, and end it, just before the page goes.

let leavingSince: number | null = null;

const page = globalThis as { addEventListener?: (type: string, listener: () => void) => void };
page.addEventListener?.('beforeunload', () => (leavingSince = Date.now()));
page.addEventListener?.('pagehide', () => (leavingSince = Date.now()));
page.addEventListener?.('pageshow', () => (leavingSince = null));

/** How long a page that said it was leaving may still be here before it counts as staying. */
const STAYING_AFTER_MS = 3000;

/**
 * Resolves at once when the page is not being left. When it is, resolves only if the page is still
 * here a few seconds later (a navigation that was cancelled), so a request cancelled by a reload
 * is never reported.
 */
export function unlessLeaving(): Promise<void> {
  if (leavingSince === null) return Promise.resolve();
  return new Promise((resolve) => {
    setTimeout(() => {
      leavingSince = null;
      resolve();
    }, STAYING_AFTER_MS);
  });
}
