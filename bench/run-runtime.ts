import { benchRuntime } from './runtime.bench.js';

/** `npm run bench:runtime`: the notebook runtime figures alone (no build needed: it starts no web app). */
async function main() {
  console.log((await benchRuntime()).join('\n'));
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
