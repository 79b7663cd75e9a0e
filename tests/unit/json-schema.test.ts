import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { flowJsonSchema } from '../../src/engine/language/json-schema.ts';

describe('schema/vfdl.schema.json', () => {
  it('is the schema generated from the syntax table (run `npm run schema` after changing it)', () => {
    const committed = JSON.parse(readFileSync(new URL('../../schema/vfdl.schema.json', import.meta.url), 'utf8'));
    expect(committed).toEqual(flowJsonSchema());
  });

  it('requires id and states and closes the known objects', () => {
    const schema = flowJsonSchema() as { required: string[]; additionalProperties: boolean; properties: Record<string, unknown> };
    expect(schema.required).toEqual(['id', 'states']);
    expect(schema.additionalProperties).toBe(false);
    expect(Object.keys(schema.properties)).toContain('base_prompt');
    expect(Object.keys(schema.properties)).toContain('initial_state');
  });
});
