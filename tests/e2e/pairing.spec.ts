// Paired kiosks in Chromium, reached as another machine would reach the server: by a name
// (kiosk.test, mapped to this machine with --host-resolver-rules), not at localhost. The kiosk
// shows staff its pairing screen and every /api/ request it makes is refused; the code
// `npm run pair` prints (through the door of the server, which holds the memory) pairs it, and a
// whole clinic visit with its appointment look-up and check-in then works. On a second device a
// used code, an expired one (the server's clock moved, no waiting) and guessed ones are refused,
// then pairing locks. The first device's operator panel, opened with the PIN, lists it with when
// it was last seen and makes a code that pairs the second (a new code opens the lock). Revoked in
// the second device's operator panel, the first device's next request is refused in the middle of
// a visit, which is wiped, and the pairing screen is back.

import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { chromium, type Browser, type Page } from '@playwright/test';
import { expect, test } from './support/test.ts';
import { startServer, type RunningServer } from '../../server/app.ts';
import { testConfig } from '../support/test-config.ts';
import { Pairing } from '../../server/pairing.ts';
import { startClinicService, type ClinicService } from '../servers/clinic-service.ts';
import { emptyTestMemory } from '../support/test-memory.ts';
import { CHROMIUM_FLAGS, CHROMIUM_SHELL } from './support/chromium.ts';
import { checkIn, expectStep, input, kiosk } from './support/kiosk.ts';

const TOKEN = 'e2e-pairing-clinic-token';
const PIN = '602415';
const run = promisify(execFile);

let browser: Browser;
let clinic: ClinicService;
let server: RunningServer;
let pairing: Pairing;
let doorDir: string;
/** the server's clock: the test moves it to let a code run out */
const clock = { offsetMs: 0 };

test.beforeAll(async () => {
  clinic = await startClinicService({ token: TOKEN });
  doorDir = mkdtempSync(join(tmpdir(), 'kiosk-pairing-e2e-'));
  const memory = await emptyTestMemory();
  const now = () => Date.now() + clock.offsetMs;
  pairing = new Pairing(memory.pairings, memory.pairingLock, { now });
  const config = testConfig({ ALLOWED_HOSTS: 'kiosk.test', OPERATOR_PIN: PIN, ACTION_ORIGIN_CLINIC: clinic.url, ACTION_SECRET_CLINIC_TOKEN: TOKEN, ACTION_SECRET_CLINIC_TOKEN_ORIGINS: clinic.url });
  server = await startServer({ root: 'dist', config, host: '127.0.0.1', port: 0, quiet: true, memory, doorDir, api: { pairing: { now } } });
  browser = await chromium.launch({ executablePath: CHROMIUM_SHELL, args: [...CHROMIUM_FLAGS, '--host-resolver-rules=MAP kiosk.test 127.0.0.1'] });
});
test.afterAll(async () => {
  await browser?.close();
  await server?.close();
  await clinic?.close();
  rmSync(doorDir, { recursive: true, force: true });
});

/** `npm run pair -- ...args`, as the operator types it on the server, with its settings (the memory's folder). */
async function npmRunPair(...args: string[]): Promise<string> {
  const { stdout } = await run('npm', ['run', '--silent', 'pair', '--', ...args], { env: { ...process.env, KIOSK_DATA_DIR: doorDir, DATABASE_URL: '' }, timeout: 60_000 });
  return stdout;
}

/** A device: a browser context of its own, opening the clinic kiosk as kiosk.test; every /api/ answer it gets is kept. */
async function device(): Promise<{ page: Page; answers: string[] }> {
  const context = await browser.newContext({ baseURL: server.url.replace('127.0.0.1', 'kiosk.test'), viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const answers: string[] = [];
  page.on('response', (r) => {
    const path = new URL(r.url()).pathname;
    if (path.startsWith('/api/')) answers.push(`${r.status()} ${r.request().method()} ${path}`);
  });
  await page.goto('/?flow=clinic-checkin');
  return { page, answers };
}

/** Types `code` on the pairing screen and sends it. */
async function typeCode(page: Page, code: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Pairing code' }).fill(code);
  await page.getByRole('button', { name: 'Pair', exact: true }).click();
}

const message = (page: Page) => page.locator('#pairing-message');

/** Opens the operator panel as staff do: the corner held about 3 s, then the PIN. */
async function openPanel(page: Page): Promise<void> {
  const box = (await page.getByRole('button', { name: 'Staff: hold for 3 seconds to open the operator panel' }).boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await expect(page.getByLabel('PIN', { exact: true })).toBeVisible({ timeout: 20_000 });
  await page.mouse.up();
  await page.getByLabel('PIN', { exact: true }).fill(PIN);
  await page.getByRole('button', { name: 'Unlock' }).click();
}

// Two devices, a whole visit and a second one begun, and npm run pair in a process of its own: a
// busy two-core machine stretches it past the suite's usual ceiling.
test.describe.configure({ timeout: 90_000 });

test('a tablet on the network: the pairing screen, a code from npm run pair, a visit with its actions, wrong codes locked out, the operator panel pairing another and revoking the first mid-visit', async () => {
  const lobby = await device();
  await expect(kiosk(lobby.page)).toHaveAttribute('data-pairing', 'not_paired');
  await expect(lobby.page.getByRole('heading', { name: 'Pair this kiosk with its server' })).toBeVisible();
  await expect(lobby.page.getByRole('main')).toContainText('npm run pair');
  await typeCode(lobby.page, 'ZZZZ-ZZZZ');
  await expect(message(lobby.page)).toHaveText('That code is not right. 4 tries left before pairing locks.');
  expect(lobby.answers).toEqual(['401 GET /api/config', '403 POST /api/pairing']);

  // The operator makes a code on the server, which is running and holds the memory.
  const printed = await npmRunPair('Lobby iPad');
  const code = /^ {4}([A-Z0-9]{4}-[A-Z0-9]{4})$/m.exec(printed)![1]!;
  // Typed as staff might: lower case, a space for the dash.
  await Promise.all([lobby.page.waitForEvent('load'), typeCode(lobby.page, code.toLowerCase().replace('-', ' '))]);
  await expect(kiosk(lobby.page)).toHaveAttribute('data-phase', 'idle');
  await expect(kiosk(lobby.page)).toHaveAttribute('data-pairing', 'none');
  const cookies = await lobby.page.context().cookies();
  expect(cookies.map((c) => [c.name, c.httpOnly, c.sameSite, c.path])).toEqual([['vk-device', true, 'Strict', '/']]);
  expect(await lobby.page.evaluate<string>('document.cookie')).toBe('');

  // A whole visit: the appointment looked up at the clinic, the patient checked in.
  await lobby.page.getByRole('button', { name: 'Start', exact: true }).click();
  await input(lobby.page, 'Full name').fill('Maria Garcia');
  await input(lobby.page, 'Date of birth').fill('1984-03-05');
  await lobby.page.getByRole('button', { name: 'Continue' }).click();
  await lobby.page.getByRole('button', { name: /^Appointment/ }).click();
  await expectStep(lobby.page, 'appointment');
  await lobby.page.getByRole('button', { name: 'Find my appointment' }).click();
  await expectStep(lobby.page, 'appointment_summary');
  await expect(lobby.page.getByRole('main')).toContainText('Appointment: Dr. Lindqvist at 10:30');
  await checkIn(lobby.page);
  await expectStep(lobby.page, 'checked_in');
  expect(clinic.lookups).toEqual([{ name: 'Maria Garcia', dob: '1984-03-05', found: true }]);
  expect(clinic.checkIns).toEqual([expect.objectContaining({ name: 'Maria Garcia', appointment_id: 'apt-1001' })]);
  await lobby.page.getByRole('button', { name: 'Done' }).click();
  await lobby.page.getByRole('button', { name: 'Finish' }).click();
  await expect(kiosk(lobby.page)).toHaveAttribute('data-phase', 'idle');

  // A second device: the code already used, a code left to run out, then guesses until pairing locks.
  const late = await pairing.makeCode('Entrance');
  clock.offsetMs += 10 * 60_000;
  const entrance = await device();
  await typeCode(entrance.page, code);
  await expect(message(entrance.page)).toHaveText('That code has been used already: each code pairs one device. Make a new one. 4 tries left before pairing locks.');
  await typeCode(entrance.page, late.ok ? late.code : '');
  await expect(message(entrance.page)).toHaveText('That code has run out (a code lasts 10 minutes). Make a new one. 3 tries left before pairing locks.');
  for (const [guess, left] of [['AAAA-AAAA', 2], ['AAAA-AAAB', 1]] as const) {
    await typeCode(entrance.page, guess);
    await expect(message(entrance.page)).toHaveText(`That code is not right. ${left} ${left === 1 ? 'try' : 'tries'} left before pairing locks.`);
  }
  await typeCode(entrance.page, 'AAAA-AAAC');
  await expect(message(entrance.page)).toHaveText('Locked after too many wrong codes. Try again in 5 minutes, or make a new code.');
  await expect(entrance.page.getByRole('textbox', { name: 'Pairing code' })).toBeDisabled();
  // Nothing but the pairing route answered this device.
  expect(entrance.answers.filter((a) => !a.endsWith('/api/pairing'))).toEqual(['401 GET /api/config']);

  // The lobby's operator panel: the paired devices with when each was last seen, and a new code.
  await openPanel(lobby.page);
  const devices = lobby.page.getByRole('region', { name: 'Paired devices' });
  await expect(devices.locator('li')).toHaveCount(1);
  await expect(devices.locator('li[data-device="Lobby iPad"]')).toContainText(/Last seen .+; paired /);
  await devices.getByLabel('Name of a device to pair').fill('Entrance');
  await devices.getByRole('button', { name: 'Make a pairing code' }).click();
  const shown = await devices.getByRole('status').filter({ hasText: 'Code for “Entrance”' }).textContent();
  const panelCode = /([A-Z0-9]{4}-[A-Z0-9]{4})/.exec(shown ?? '')![1]!;
  await lobby.page.getByRole('button', { name: 'Close' }).click();
  // The new code opened the lock: the entrance device, its screen fresh, pairs with it.
  await entrance.page.reload();
  await Promise.all([entrance.page.waitForEvent('load'), typeCode(entrance.page, panelCode)]);
  await expect(kiosk(entrance.page)).toHaveAttribute('data-pairing', 'none');
  await expect(kiosk(entrance.page)).toHaveAttribute('data-phase', 'idle');
  expect((await pairing.devices()).map((d) => d.name)).toEqual(['Entrance', 'Lobby iPad']);

  // Revoked from the entrance's operator panel while a visitor is part way through at the lobby:
  // the look-up is refused, the visit wiped, the pairing screen back.
  await lobby.page.getByRole('button', { name: 'Start', exact: true }).click();
  await input(lobby.page, 'Full name').fill('Li Wei');
  await input(lobby.page, 'Date of birth').fill('1992-11-03');
  await lobby.page.getByRole('button', { name: 'Continue' }).click();
  await lobby.page.getByRole('button', { name: /^Appointment/ }).click();
  await expectStep(lobby.page, 'appointment');
  // (npm run pair -- --revoke does this through the server's door: tests/unit/pair-command.test.ts.)
  await openPanel(entrance.page);
  const listed = entrance.page.getByRole('region', { name: 'Paired devices' });
  await expect(listed.locator('li')).toHaveCount(2);
  await listed.getByRole('button', { name: 'Revoke Lobby iPad' }).click();
  await expect(listed.getByRole('status')).toHaveText('“Lobby iPad” is revoked: its next request is refused, and it shows the pairing screen.');
  await expect(listed.locator('li')).toHaveCount(1);
  expect((await pairing.devices()).map((d) => d.name)).toEqual(['Entrance']);
  await lobby.page.getByRole('button', { name: 'Find my appointment' }).click();
  await expect(kiosk(lobby.page)).toHaveAttribute('data-pairing', 'device_revoked');
  await expect(lobby.page.getByRole('main')).toContainText('This device’s pairing with the kiosk’s server was revoked');
  await expect(kiosk(lobby.page)).toHaveAttribute('data-phase', 'idle');
  const revokedAt = lobby.answers.indexOf('401 POST /api/actions');
  expect(revokedAt).toBeGreaterThan(0);
  expect(lobby.answers.slice(revokedAt).filter((a) => !a.startsWith('401 '))).toEqual([]);
  expect(clinic.lookups).toHaveLength(1);
  await expect(lobby.page.getByRole('main')).not.toContainText('Li Wei');
  // A reload meets the same screen: the first request is refused too.
  await lobby.page.reload();
  await expect(kiosk(lobby.page)).toHaveAttribute('data-pairing', 'device_revoked');
  expect(lobby.answers.at(-1)).toBe('401 GET /api/config');
});
