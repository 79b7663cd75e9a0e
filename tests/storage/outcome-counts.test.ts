// The outcome counts in the database: per flow and outcome, the page's reports apart from what the
// server performed, flows past the limit in one shared bucket (so the table stays bounded whatever
// flow ids a page sends), adds made at the same moment all counted, and since when they go back.

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../server/storage/database.ts';
import { migrate } from '../../server/storage/migrations.ts';
import { OTHER_FLOWS, OutcomeCounts } from '../../server/storage/outcome-counts.ts';
import { BACK_END, emptyDatabase, testPlace, type TestPlace } from '../support/test-memory.ts';

const PERFORMED = ['done', 'failed'] as const;

let place: TestPlace;
let db: Database;

beforeAll(async () => {
  place = await testPlace();
  db = await place.open();
  await migrate(db);
});
afterAll(async () => {
  await db?.close();
  await place?.remove();
});
beforeEach(() => emptyDatabase(db));

describe(`outcome counts (${BACK_END})`, () => {
  it('counts per flow, with every outcome shown, and keeps the two kinds apart', async () => {
    const counts = new OutcomeCounts(db);
    await counts.add('performed', 'clinic_checkin', 'done');
    await counts.add('performed', 'clinic_checkin', 'done');
    await counts.add('reported', 'clinic_checkin', 'failed');
    expect(await counts.read('performed', PERFORMED)).toEqual({ clinic_checkin: { done: 2, failed: 0 } });
    expect(await counts.read('reported', PERFORMED)).toEqual({ clinic_checkin: { done: 0, failed: 1 } });
  });

  it('puts flows past its limit in one shared bucket, so the table stays bounded', async () => {
    const counts = new OutcomeCounts(db, 2);
    for (const flow of ['a', 'b', 'c', 'd', 'a']) await counts.add('performed', flow, flow === 'b' ? 'failed' : 'done');
    expect(await counts.read('performed', PERFORMED)).toEqual({ a: { done: 2, failed: 0 }, b: { done: 0, failed: 1 }, [OTHER_FLOWS]: { done: 2, failed: 0 } });
  });

  it('counts every one of many adds made at the same moment', async () => {
    const counts = new OutcomeCounts(db);
    await Promise.all(Array.from({ length: 25 }, () => counts.add('reported', 'visitor_signin', 'done')));
    expect(await counts.read('reported', PERFORMED)).toEqual({ visitor_signin: { done: 25, failed: 0 } });
  });

  it('says since when the counts go back: the moment the memory was made (or emptied)', async () => {
    const since = Date.parse(await new OutcomeCounts(db).since());
    expect(Math.abs(Date.now() - since)).toBeLessThan(60_000);
  });
});
