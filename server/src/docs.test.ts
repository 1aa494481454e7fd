import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { errorCatalogueMarkdown } from '../../scripts/error-catalogue.js';

describe('docs/api.md', () => {
  it('carries the current error catalogue (run `npm run docs:api` after changing it)', () => {
    const doc = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');
    expect(doc).toContain(errorCatalogueMarkdown());
  });
});
