#!/usr/bin/env node
// `vfdl`: check, test and graph VFDL flows. The command is TypeScript, loaded through tsx.
import { register } from 'tsx/esm/api';

register();
// A reader that stops early (`vfdl test --json | head`) closes the pipe: that ends the output, quietly.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
