import os from 'node:os';
import { benchApi } from './api.bench.js';
import { benchBundle } from './bundle.bench.js';
import { benchCertificates } from './certificate.bench.js';
import { benchCheck } from './check.bench.js';
import { benchClassroom } from './classroom.bench.js';
import { benchCourses } from './course.bench.js';
import { benchDataset } from './dataset.bench.js';
import { benchEveryday } from './everyday.bench.js';
import { benchEventQueue } from './event-queue.bench.js';
import { benchEvents } from './events.bench.js';
import { benchImport } from './import.bench.js';
import { benchLogin } from './login.bench.js';
import { benchRuntimeCapacity } from './runtime-capacity.bench.js';
import { benchRuntime } from './runtime.bench.js';
import { benchWeb } from './web.bench.js';

/** A benchmark on the embedded database, then on the PostgreSQL server of DATABASE_URL when one is given. */
function onBoth(bench: (databaseUrl?: string) => Promise<string[]>) {
  return async (databaseUrl?: string) => {
    print(await bench(undefined));
    if (databaseUrl) print(await bench(databaseUrl));
  };
}

const SECTIONS: { id: string; title: string; run: (databaseUrl?: string) => Promise<void> }[] = [
  {
    id: 'api',
    title: 'API overhead (10 connections, 5 s each)',
    run: async (databaseUrl) => {
      print(await benchApi(undefined));
      if (databaseUrl) print(await benchApi(databaseUrl));
      else console.log('(set DATABASE_URL to measure on PostgreSQL as well)');
    },
  },
  { id: 'login', title: 'Login storm', run: async (databaseUrl) => print(await benchLogin(databaseUrl)) },
  { id: 'import', title: 'Student import', run: onBoth(benchImport) },
  { id: 'runtime', title: 'Notebook runtimes', run: async () => print(await benchRuntime()) },
  {
    id: 'capacity',
    title: 'Notebook runtimes running at once',
    run: async () => print(await benchRuntimeCapacity()),
  },
  { id: 'course', title: 'Course centre and detail', run: onBoth(benchCourses) },
  {
    id: 'everyday',
    title: 'Everyday reads against bare routes sending the same SQL',
    run: onBoth(benchEveryday),
  },
  { id: 'bundle', title: 'Web bundle', run: async () => print(await benchBundle()) },
  { id: 'classroom', title: 'Live classroom', run: onBoth(benchClassroom) },
  { id: 'check', title: 'Experiment checks and the AI environment', run: async () => print(await benchCheck()) },
  { id: 'web', title: 'The web app on a phone (Lighthouse)', run: async () => print(await benchWeb()) },
  {
    id: 'dataset',
    title: 'A 500 MB dataset zip: tus upload, check and extraction beside unzip',
    run: async () => print(await benchDataset()),
  },
  {
    id: 'events',
    title: 'Contest results and ladder (200 connections) beside bare routes, and the auto-scoring queue',
    run: async (databaseUrl) => {
      await onBoth(benchEvents)(databaseUrl);
      print(await benchEventQueue());
    },
  },
  {
    id: 'certificates',
    title: 'Certificate PDFs: a class of 40 merged, embedded CJK fonts beside standard Helvetica',
    run: async () => print(await benchCertificates()),
  },
];

function print(lines: string[]) {
  for (const line of lines) console.log(line);
}

/**
 * `npm run bench`: every figure is measured in this one run, on loopback, with bounded load.
 * `npm run bench -- login bundle` runs only the named sections.
 */
async function main() {
  const wanted = process.argv.slice(2);
  const unknown = wanted.filter((id) => !SECTIONS.some((section) => section.id === id));
  if (unknown.length > 0) {
    throw new Error(`unknown section ${unknown.join(', ')}; sections: ${SECTIONS.map((s) => s.id).join(', ')}`);
  }
  console.log(
    `# ${new Date().toISOString()} · Node ${process.version} · ${os.cpus().length} cores · ${os.cpus()[0]?.model}`,
  );
  for (const section of SECTIONS) {
    if (wanted.length > 0 && !wanted.includes(section.id)) continue;
    console.log(`\n## ${section.title}`);
    await section.run(process.env.DATABASE_URL);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
