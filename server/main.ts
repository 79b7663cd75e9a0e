// `npm run serve`: the built kiosk and its /api/ routes on HOST:PORT, configured from the
// environment and .env. Opens the kiosk's memory (KIOSK_DATA_DIR or DATABASE_URL) before it
// listens and closes it on SIGINT/SIGTERM. Says where the memory is, which outside services and
// origins it uses, and what stands in for the others.

import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { startServer } from './app.ts';
import { describeServices, missingOrigins } from './banner.ts';
import { ConfigError, loadConfig, type KioskConfig } from './config.ts';
import { BUNDLED_FLOWS, FlowLibrary } from './flow-library.ts';
import { readFlowFolder } from './flow-folder.ts';
import { describeFailure } from './route-guard.ts';
import { MemoryError } from './storage/database.ts';
import { openMemory, type Memory } from './storage/memory.ts';
import { readMemorySettings, type MemorySettings } from './storage/settings.ts';

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

/**
 * The last guard: an error that escaped every handler is logged in one line and the server goes
 * on. Every /api/ route already answers its own failures (route-guard.ts), so what reaches here is
 * a bug in one request's callbacks; the state the server shares between requests (the action
 * ids, the PIN lock, the counts) is changed only in synchronous steps that call nothing that can
 * throw half way, so it is whole. Exiting instead would be worse: a restart forgets the action ids
 * (an action could run twice) and the PIN lock (fresh tries for a guesser), and one request that
 * finds the bug would take the kiosk down for everyone. The one request left hanging is closed by
 * its time-outs.
 */
function keepServing(): void {
  process.on('unhandledRejection', (reason) => console.error(`[server] unhandled rejection, still serving: ${describeFailure(reason)}`));
  process.on('uncaughtException', (error) => console.error(`[server] uncaught exception, still serving: ${describeFailure(error)}`));
}

async function main(): Promise<void> {
  let config: KioskConfig;
  let settings: MemorySettings;
  try {
    config = loadConfig();
    settings = readMemorySettings(process.env);
  } catch (error) {
    if (error instanceof ConfigError) fail(`Cannot start: ${error.message}`);
    throw error;
  }
  const root = resolve('dist');
  if (!existsSync(resolve(root, 'index.html'))) fail('Run `npm run build` first (npm start does both).');

  let memory: Memory;
  try {
    memory = await openMemory(settings, { log: (line) => console.error(line) });
  } catch (error) {
    if (error instanceof MemoryError) fail(`Cannot start: ${error.message}`);
    throw error;
  }

  // The kiosks' flow folder the flow studio saves into (FLOW_FOLDER; none: files only).
  const flowFolder = readFlowFolder(process.env);
  let server: Awaited<ReturnType<typeof startServer>>;
  try {
    server = await startServer({ root, config: { ...config, flowFolder }, host: config.host, port: config.port, memory });
  } catch (error) {
    await memory.close();
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') fail(`Port ${config.port} on ${config.host} is already in use: stop the other server or set PORT to another port.`);
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') fail(`Cannot listen on ${config.host}: set HOST to an address of this machine.`);
    if (code === 'EACCES') fail(`Not allowed to listen on port ${config.port}: set PORT to a port above 1023.`);
    throw error;
  }

  keepServing();
  console.log(`voice-kiosk at ${server.url}`);
  const bundledOrigins = new FlowLibrary(BUNDLED_FLOWS, null).bundledOrigins();
  for (const line of describeServices(config, bundledOrigins)) console.log(line);
  console.log(`  ${'memory'.padEnd(15)} ${memory.where} (action ids, the PIN lock, outcome counts)`);
  console.log(`  ${'flow studio'.padEnd(15)} ${server.url}/studio/ (saves for the kiosks ${flowFolder ? `into ${flowFolder}, loaded as ?flow=/flows/NAME.yaml` : 'nowhere: FLOW_FOLDER is not set'})`);
  for (const warning of [...config.warnings, ...missingOrigins(config, bundledOrigins)]) console.warn(`warning: ${warning}`);

  let closing = false;
  const stop = () => {
    if (closing) process.exit(1); // a second Ctrl-C: do not wait
    closing = true;
    void server
      .close()
      .then(() => memory.close())
      .then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

await main();
