import { describe, expect, it } from 'vitest';
import { VALIDATION_MESSAGES } from './validation.js';

describe('the schemas’ own validation messages', () => {
  it('are translated alike in every language', () => {
    const [first, ...rest] = Object.values(VALIDATION_MESSAGES).map((table) => Object.keys(table).sort());
    for (const keys of rest) expect(keys).toEqual(first);
  });
});
