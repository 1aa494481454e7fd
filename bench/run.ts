import os from 'node:os';
import { benchApi } from './api.bench.js';
import { benchBundle } from './bundle.bench.js';
import { benchCourses } from './course.bench.js';
import { benchImport } from './import.bench.js';
import { benchLogin } from './login.bench.js';
import { benchRuntime } from './runtime.bench.js';

/** One part of the run: its heading and its measurements. */
const SECTIONS: Record<string, [string, () => Promise<string[]>]> = {
  api: [
    'API overhead (10 connections, 5 s each)',
    async () => [
      ...(await benchApi(undefined)),
      ...(process.env.DATABASE_URL
        ? await benchApi(process.env.DATABASE_URL)
        : ['(set DATABASE_URL to measure on PostgreSQL as well)']),
    ],
  ],
  login: ['Login storm', () => benchLogin()],
  import: [
    'Student import',
    async () => [
      ...(await benchImport(undefined)),
      ...(process.env.DATABASE_URL ? await benchImport(process.env.DATABASE_URL) : []),
    ],
  ],
  runtime: ['Notebook runtimes', () => benchRuntime()],
  course: [
    'Course centre and detail',
    async () => [
      ...(await benchCourses(undefined)),
      ...(process.env.DATABASE_URL ? await benchCourses(process.env.DATABASE_URL) : []),
    ],
  ],
  bundle: ['Web bundle', () => benchBundle()],
};

/**
 * `npm run bench`: every figure is measured in this one run, on loopback, with bounded load. Naming sections
 * (`npm run bench -- course api`) runs only those.
 */
async function main() {
  const wanted = process.argv.slice(2);
  const unknown = wanted.filter((name) => !(name in SECTIONS));
  if (unknown.length > 0) throw new Error(`Unknown bench sections: ${unknown.join(', ')}`);
  console.log(
    `# ${new Date().toISOString()} · Node ${process.version} · ${os.cpus().length} cores · ${os.cpus()[0]?.model}`,
  );
  for (const [name, [heading, run]] of Object.entries(SECTIONS)) {
    if (wanted.length > 0 && !wanted.includes(name)) continue;
    console.log(`\n## ${heading}`);
    for (const line of await run()) console.log(line);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
