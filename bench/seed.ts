import { benchInstitution } from './institution.bench.js';

/** `npm run bench:seed`: 100,000 students and 1,000 classes in one customer, then the admin list and statistics. */
async function main() {
  // BENCH_SKIP_PGLITE=true measures PostgreSQL alone (seeding the embedded database takes minutes).
  if (process.env.BENCH_SKIP_PGLITE !== 'true') for (const line of await benchInstitution(undefined)) console.log(line);
  if (process.env.DATABASE_URL) for (const line of await benchInstitution(process.env.DATABASE_URL)) console.log(line);
  else console.log('(set DATABASE_URL to measure on PostgreSQL as well)');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
