// A device paired with a kiosk's memory, for the tests that reach the server from "another
// machine" (a Host other than localhost, or through a proxy): a code made and used as staff would,
// and the cookie the device then holds.

import { Pairing } from '../../server/pairing.ts';
import type { Memory } from '../../server/storage/memory.ts';

/** Pairs a device called `name` on `memory`; resolves with the Cookie header it then sends. */
export async function pairedCookie(memory: Memory, name = 'Test tablet'): Promise<string> {
  const pairing = new Pairing(memory.pairings, memory.pairingLock);
  const made = await pairing.makeCode(name);
  if (!made.ok) throw new Error(`no code for ${name}: ${made.message}`);
  const paired = await pairing.pair(made.code);
  if (!paired.ok) throw new Error(`the code for ${name} did not pair: ${paired.reason}`);
  return `vk-device=${paired.token}`;
}
