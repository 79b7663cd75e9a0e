// Writes schema/vfdl.schema.json from the syntax table (`npm run schema`).
import { writeFileSync } from 'node:fs';
import { flowJsonSchema } from '../src/engine/language/json-schema.ts';

writeFileSync(new URL('../schema/vfdl.schema.json', import.meta.url), `${JSON.stringify(flowJsonSchema(), null, 2)}\n`);
console.log('wrote schema/vfdl.schema.json');
