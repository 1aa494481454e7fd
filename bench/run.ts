import os from 'node:os';
import { benchApi } from './api.bench.js';
import { benchBundle } from './bundle.bench.js';
import { benchCourses } from './course.bench.js';
import { benchImport } from './import.bench.js';
import { benchLogin } from './login.bench.js';
import { benchRuntime } from './runtime.bench.js';

/** `npm run bench`: every figure is measured in this one run, on loopback, with bounded load. */
async function main() {
  console.log(
    `# ${new Date().toISOString()} · Node ${process.version} · ${os.cpus().length} cores · ${os.cpus()[0]?.model}`,
  );
  console.log('\n## API overhead (10 connections, 5 s each)');
  for (const line of await benchApi(undefined)) console.log(line);
  if (process.env.DATABASE_URL) {
    for (const line of await benchApi(process.env.DATABASE_URL)) console.log(line);
  } else {
    console.log('(set DATABASE_URL to measure on PostgreSQL as well)');
  }
  console.log('\n## Login storm');
  for (const line of await benchLogin()) console.log(line);
  console.log('\n## Student import');
  for (const line of await benchImport(undefined)) console.log(line);
  if (process.env.DATABASE_URL) for (const line of await benchImport(process.env.DATABASE_URL)) console.log(line);
  console.log('\n## Notebook runtimes');
  for (const line of await benchRuntime()) console.log(line);
  console.log('\n## Course centre and detail');
  for (const line of await benchCourses(undefined)) console.log(line);
  if (process.env.DATABASE_URL) for (const line of await benchCourses(process.env.DATABASE_URL)) console.log(line);
  console.log('\n## Web bundle');
  for (const line of await benchBundle()) console.log(line);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
