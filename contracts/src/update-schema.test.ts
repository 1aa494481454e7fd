import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as contracts from './index.js';
import { updateOf } from './update-schema.js';

describe('updateOf', () => {
  it('makes every field optional without the defaults of the creation', () => {
    const create = z.object({ name: z.string().min(1), notes: z.string().default(''), tags: z.array(z.string()) });
    const update = updateOf(create);
    expect(update.parse({ name: 'New' })).toEqual({ name: 'New' });
    expect(update.parse({})).toEqual({});
    expect(update.safeParse({ name: '' }).success).toBe(false);
  });

  const updates = (Object.entries(contracts) as [string, unknown][]).filter(
    (entry): entry is [string, z.ZodType] => /^ZUpdate/.test(entry[0]) && entry[1] instanceof z.ZodType,
  );
  it.each(updates)('%s fills in no field that was not sent', (_name, schema) => {
    const parsed = schema.safeParse({});
    if (parsed.success) expect(parsed.data).toEqual({});
  });
});
