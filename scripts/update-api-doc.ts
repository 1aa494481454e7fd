import { readFileSync, writeFileSync } from 'node:fs';
import { CATALOGUE_END, CATALOGUE_START, errorCatalogueMarkdown } from './error-catalogue.js';

// `npm run docs:api` rewrites the error catalogue of docs/api.md from contracts/src/errors.ts.
const file = new URL('../docs/api.md', import.meta.url);
const doc = readFileSync(file, 'utf8');
const start = doc.indexOf(CATALOGUE_START);
const end = doc.indexOf(CATALOGUE_END) + CATALOGUE_END.length;
if (start < 0 || end < start) throw new Error('docs/api.md has no error-catalogue markers');
writeFileSync(file, doc.slice(0, start) + errorCatalogueMarkdown() + doc.slice(end));
