import { fileURLToPath } from 'node:url';

/** The committed drizzle-kit migrations; the same relative place from `src/` (tests, dev) and `dist/` (production). */
export const MIGRATIONS_FOLDER = fileURLToPath(new URL('../../../drizzle', import.meta.url));
