#!/usr/bin/env node
// `vfdl`: check, test and graph VFDL flows. The command is TypeScript, loaded through tsx.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
