/*
 * Preloaded into a benchmark's server process (`node --expose-gc --import <this file> server/dist/main.js`): on
 * SIGUSR2 it collects garbage and writes `process.memoryUsage()` to the file BENCH_MEMORY_REPORT names, so memory
 * compared before and after something holds what stays, not garbage a collection had not yet reached.
 */
import { renameSync, writeFileSync } from 'node:fs';

const file = process.env.BENCH_MEMORY_REPORT;
if (file) {
  process.on('SIGUSR2', () => {
    globalThis.gc?.();
    writeFileSync(`${file}.tmp`, JSON.stringify(process.memoryUsage()));
    renameSync(`${file}.tmp`, file);
  });
}
