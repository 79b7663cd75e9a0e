// Safari's engine for the engine lanes: WebKitGTK's MiniBrowser, driven by Debian's
// WebKitWebDriver over plain W3C WebDriver (HTTP and JSON from Node's fetch: the dozen commands
// the tests use need no client library), on an X display of its own (Xvfb). MiniBrowser runs with
// WebKit's mock capture devices, so getUserMedia answers as on a tablet whose visitor allowed
// the microphone.

import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { FIND_CONTROL, type EnginePage, type Key, type Target } from './engine.ts';

export const WEBKIT_DRIVER = '/usr/bin/WebKitWebDriver';
export const MINIBROWSER = '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';

/** WebDriver's name for an element reference in JSON. */
const ELEMENT = 'element-6066-11e4-a52e-4f735466cecf';

/** WebDriver's code points for the keys the tests press (W3C WebDriver, "Keyboard actions"; Enter is its Return). */
const KEYS: Record<Key, string> = { Enter: '\uE006', Tab: '\uE004', Space: ' ', Escape: '\uE00C', ArrowDown: '\uE015', ArrowUp: '\uE013', Backspace: '\uE003' };

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Starts `command` and resolves once `ready()` holds (polled), or rejects with its output. */
async function startProcess(command: string, args: string[], env: NodeJS.ProcessEnv, ready: () => Promise<boolean>, what: string): Promise<ChildProcess> {
  const child = spawn(command, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let output = '';
  child.stderr!.on('data', (d: Buffer) => void (output = (output + d.toString()).slice(-2000)));
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${what} exited (${child.exitCode}): ${output}`);
    if (await ready().catch(() => false)) return child;
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill();
  throw new Error(`${what} did not start in 30 s: ${output}`);
}

/** An X display for MiniBrowser: Xvfb on the first free display number from 90. */
async function startDisplay(): Promise<{ display: string; process: ChildProcess }> {
  const { existsSync } = await import('node:fs');
  let n = 90;
  while (existsSync(`/tmp/.X11-unix/X${n}`) || existsSync(`/tmp/.X${n}-lock`)) n++;
  const display = `:${n}`;
  const process = await startProcess('Xvfb', [display, '-screen', '0', '1400x1000x24', '-nolisten', 'tcp'], globalThis.process.env, async () => existsSync(`/tmp/.X11-unix/X${n}`), 'Xvfb');
  return { display, process };
}

/** Sends one WebDriver command; resolves with its `value`, rejects with WebDriver's error. */
async function command(base: string, method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(base + path, {
    method,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json = (await response.json()) as { value: unknown };
  const value = json.value as { error?: string; message?: string } | null;
  if (!response.ok || (value && typeof value === 'object' && 'error' in value && value.error)) {
    throw new Error(`WebDriver ${method} ${path}: ${value?.error}: ${value?.message}`);
  }
  return json.value;
}

/** Launches MiniBrowser through WebKitWebDriver and opens one page of `width`×`height`. */
export async function openWebKit(viewport: { width: number; height: number }): Promise<EnginePage> {
  const x = await startDisplay();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  let driver: ChildProcess;
  try {
    driver = await startProcess(WEBKIT_DRIVER, [`--port=${port}`], { ...process.env, DISPLAY: x.display }, async () => (await fetch(`${base}/status`)).ok, 'WebKitWebDriver');
  } catch (error) {
    x.process.kill();
    throw error;
  }
  const stop = () => {
    driver.kill();
    x.process.kill();
  };
  let id: string;
  try {
    const session = (await command(base, 'POST', '/session', {
      capabilities: {
        alwaysMatch: {
          browserName: 'MiniBrowser',
          timeouts: { script: 60_000, pageLoad: 60_000 },
          'webkitgtk:browserOptions': { binary: MINIBROWSER, args: ['--automation', '--enable-mock-capture-devices=true', '--enable-media-stream=true'] },
        },
      },
    })) as { sessionId: string };
    id = session.sessionId;
  } catch (error) {
    stop();
    throw error;
  }
  const call = (method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown) => command(base, method, `/session/${id}${path}`, body);
  // The window's outer size takes the browser's own bars: grow it until the page has `viewport`.
  const inner = async () => (await call('POST', '/execute/sync', { script: 'return [innerWidth, innerHeight]', args: [] })) as [number, number];
  await call('POST', '/window/rect', { x: 0, y: 0, width: viewport.width, height: viewport.height });
  const [w, h] = await inner();
  await call('POST', '/window/rect', { x: 0, y: 0, width: 2 * viewport.width - w, height: 2 * viewport.height - h });

  const run = (source: string, ...args: unknown[]) => call('POST', '/execute/sync', { script: `return (${source}).apply(null, arguments)`, args });
  /** The control's element reference, waiting briefly for it to be there. */
  const element = async (target: Target): Promise<string> => {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const found = (await run(FIND_CONTROL, target)) as Record<string, string> | null;
      if (found?.[ELEMENT]) return found[ELEMENT];
      if (Date.now() > deadline) throw new Error(`webkit: no control ${JSON.stringify(target)} on the page`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const keyActions = (text: string) => [...text].flatMap((k) => [{ type: 'keyDown', value: k }, { type: 'keyUp', value: k }]);
  return {
    engine: 'webkit',
    goto: async (url) => void (await call('POST', '/url', { url })),
    reload: async () => void (await call('POST', '/refresh', {})),
    evaluate: async (fn, arg) => (await run(fn, arg)) as never,
    run: (script) => call('POST', '/execute/sync', { script: `return ${script}`, args: [] }),
    tap: async (target) => void (await call('POST', `/element/${await element(target)}/click`, {})),
    hold: async (target, released) => {
      const el = await element(target);
      const pointer = (actions: unknown[]) => call('POST', '/actions', { actions: [{ type: 'pointer', id: 'finger', parameters: { pointerType: 'mouse' }, actions }] });
      await pointer([{ type: 'pointerMove', origin: { [ELEMENT]: el }, x: 0, y: 0 }, { type: 'pointerDown', button: 0 }]);
      try {
        await released();
      } finally {
        await pointer([{ type: 'pointerUp', button: 0 }]);
        await call('DELETE', '/actions');
      }
    },
    type: async (target, text) => {
      const el = await element(target);
      if (await run('(el) => el.value !== ""', { [ELEMENT]: el })) await call('POST', `/element/${el}/clear`, {});
      await call('POST', `/element/${el}/value`, { text });
    },
    choose: async (target, option) => {
      const select = await element(target);
      const found = (await run('(s, label) => [...s.options].find((o) => o.label === label) ?? null', { [ELEMENT]: select }, option)) as Record<string, string> | null;
      if (!found?.[ELEMENT]) throw new Error(`webkit: ${JSON.stringify(target)} has no option ${option}`);
      await call('POST', `/element/${found[ELEMENT]}/click`, {});
    },
    press: async (key) => {
      await call('POST', '/actions', { actions: [{ type: 'key', id: 'keyboard', actions: keyActions(KEYS[key]) }] });
      await call('DELETE', '/actions');
    },
    keys: async (text) => {
      await call('POST', '/actions', { actions: [{ type: 'key', id: 'keyboard', actions: keyActions(text) }] });
      await call('DELETE', '/actions');
    },
    screenshot: async () => Buffer.from((await call('GET', '/screenshot')) as string, 'base64'),
    close: async () => {
      await call('DELETE', '').catch(() => undefined);
      stop();
    },
  };
}
