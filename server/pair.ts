// `npm run pair`: the operator's pairing of kiosks from the server's own machine, with the same
// settings as the server (the environment and .env: KIOSK_DATA_DIR or DATABASE_URL).
//
//   npm run pair -- "Lobby iPad"             a one-time code for the device called Lobby iPad
//   npm run pair -- --list                   the paired devices, with when each was last seen
//   npm run pair -- --revoke "Lobby iPad"    revokes it: its next request is refused
//
// It works whether or not the server runs: with PGlite, a running server holds the folder, and is
// asked through the door it left there (pair-desk.ts); otherwise the memory is opened directly.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from './config.ts';
import { readDoor } from './local-door.ts';
import { CODE_MS } from './pairing.ts';
import { doorDesk, DoorError, memoryDesk, type Desk } from './pair-desk.ts';
import { MemoryError } from './storage/database.ts';
import { openMemory } from './storage/memory.ts';
import { readMemorySettings, type MemorySettings } from './storage/settings.ts';

const USAGE = `Pairs kiosks (tablets, PCs) with this kiosk's server: a device on another machine uses the
kiosk only once staff have typed a code from here on its pairing screen.

  npm run pair -- "Lobby iPad"             make a one-time code for the device called "Lobby iPad"
  npm run pair -- --list                   list the paired devices, with when each was last seen
  npm run pair -- --revoke "Lobby iPad"    revoke it: its next request is refused

A code works once, within ${CODE_MS / 60_000} minutes. The settings are the server's (KIOSK_DATA_DIR or
DATABASE_URL, from the environment or .env); the server may be running or not.`;

/** What the command was asked to do. */
type Task = { kind: 'make'; name: string } | { kind: 'list' } | { kind: 'revoke'; name: string } | { kind: 'help' };

/** The task `args` ask for, or a sentence saying what is wrong with them. */
function readTask(args: readonly string[]): Task | string {
  const [first, second, ...rest] = args;
  if (first === undefined || first === '--help' || first === '-h') return { kind: 'help' };
  if (first === '--list') return second === undefined ? { kind: 'list' } : '--list takes nothing after it.';
  if (first === '--revoke') {
    if (second === undefined || !second.trim()) return 'Name the device to revoke: npm run pair -- --revoke "Lobby iPad"';
    return rest.length ? 'Put a name with spaces in quotes: npm run pair -- --revoke "Lobby iPad"' : { kind: 'revoke', name: second };
  }
  if (first.startsWith('-')) return `There is no option ${first}.\n\n${USAGE}`;
  if (second !== undefined) return 'Put a name with spaces in quotes: npm run pair -- "Lobby iPad"';
  return { kind: 'make', name: first };
}

/** A time as the operator reads it: the day and the minute, in this machine's time zone. */
function shownTime(ms: number, withDay = true): string {
  const d = new Date(ms);
  const two = (n: number) => String(n).padStart(2, '0');
  const time = `${two(d.getHours())}:${two(d.getMinutes())}`;
  return withDay ? `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${time}` : time;
}

/** The desk for `settings`: the running server's door, or the memory opened here. */
async function openDesk(settings: MemorySettings): Promise<Desk> {
  if (settings.kind === 'pglite') {
    const note = readDoor(settings.dataDir);
    if (note && alive(note.pid)) return doorDesk(note, `PGlite in ${settings.dataDir}`);
  }
  return memoryDesk(await openMemory(settings));
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Does `task` at `desk`; resolves with the lines to print and the exit code. */
async function perform(desk: Desk, task: Exclude<Task, { kind: 'help' }>): Promise<{ out: string[]; err: string[]; code: number }> {
  if (task.kind === 'make') {
    const made = await desk.make(task.name);
    if (!made.ok) return { out: [], err: [made.message], code: 1 };
    return {
      out: [
        `Pairing code for "${made.name}":`,
        '',
        `    ${made.code}`,
        '',
        `Open the kiosk's address on the device; it shows a pairing screen. Type this code there.`,
        `It works once, until ${shownTime(made.expiresAt, false)} (${Math.round((made.expiresAt - Date.now()) / 60_000)} minutes).`,
      ],
      err: [],
      code: 0,
    };
  }
  if (task.kind === 'revoke') {
    const name = await desk.revoke(task.name);
    if (name !== null) return { out: [`"${name}" is revoked: its next request is refused, and it shows the pairing screen again.`], err: [], code: 0 };
    const { devices } = await desk.list();
    const known = devices.length ? ` Paired: ${devices.map((d) => `"${d.name}"`).join(', ')}.` : ' No device is paired.';
    return { out: [], err: [`No paired device is called "${task.name}".${known}`], code: 1 };
  }
  const { devices, codes } = await desk.list();
  const width = Math.max(12, ...devices.map((d) => d.name.length), ...codes.map((c) => c.name.length)) + 2;
  const out = devices.length ? [`Paired devices (${devices.length}):`, ...devices.map((d) => `  ${d.name.padEnd(width)}last seen ${shownTime(d.lastSeen)}, paired ${shownTime(d.pairedAt)}`)] : ['No device is paired yet.'];
  if (codes.length) out.push('Codes not yet used:', ...codes.map((c) => `  ${c.name.padEnd(width)}until ${shownTime(c.expiresAt, false)}`));
  return { out, err: [], code: 0 };
}

async function main(): Promise<number> {
  const task = readTask(process.argv.slice(2));
  if (typeof task === 'string') {
    console.error(task);
    return 2;
  }
  if (task.kind === 'help') {
    console.log(USAGE);
    return 0;
  }
  const env = join(process.cwd(), '.env');
  let desk: Desk;
  try {
    if (existsSync(env)) process.loadEnvFile(env);
    desk = await openDesk(readMemorySettings(process.env));
  } catch (error) {
    if (error instanceof ConfigError || error instanceof MemoryError) {
      console.error(`Cannot pair: ${error.message}`);
      return 1;
    }
    throw error;
  }
  try {
    const { out, err, code } = await perform(desk, task);
    for (const line of out) console.log(line);
    for (const line of err) console.error(line);
    return code;
  } catch (error) {
    if (error instanceof DoorError) {
      console.error(`Cannot pair: ${error.message}`);
      return 1;
    }
    throw error;
  } finally {
    await desk.close();
  }
}

process.exitCode = await main();
