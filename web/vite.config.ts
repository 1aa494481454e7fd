import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig, type Plugin } from 'vite';

const backend = { target: 'http://127.0.0.1:8080', changeOrigin: false, ws: true };

const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|xml|wasm)$/;
/** Below this a compressed copy saves less than the headers it costs. */
const MIN_BYTES = 512;

/**
 * Writes a Brotli (`.br`, quality 11) and a gzip (`.gz`, level 9) copy beside every text file of the build, once,
 * so the server sends them as they are (server/src/platform/web-app.ts) instead of compressing on every request.
 * A copy that is not smaller than its file is not written.
 */
function precompress(): Plugin {
  let outDir = '';
  const brotli = promisify(brotliCompress);
  const deflate = promisify(gzip);
  return {
    name: 'aiedu:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const files = (await readdir(outDir, { recursive: true })).filter(
        // The manifest (.vite/) is read by tools, never served.
        (file) => COMPRESSIBLE.test(file) && !file.startsWith('.vite'),
      );
      await Promise.all(
        files.map(async (file) => {
          const full = path.join(outDir, file);
          if (!(await stat(full)).isFile()) return;
          const bytes = await readFile(full);
          if (bytes.length < MIN_BYTES) return;
          const [br, gz] = await Promise.all([
            brotli(bytes, {
              params: {
                [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
                [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
                [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
              },
            }),
            deflate(bytes, { level: 9 }),
          ]);
          if (br.length < bytes.length) await writeFile(`${full}.br`, br);
          if (gz.length < bytes.length) await writeFile(`${full}.gz`, gz);
        }),
      );
    },
  };
}

export default defineConfig({
  plugins: [react(), precompress()],
  // 'source' first so '@aiedu/contracts' resolves to its TypeScript source, not a build output.
  resolve: { conditions: ['source', ...defaultClientConditions] },
  server: {
    port: 5173,
    strictPort: true,
    proxy: {
      '/gw': backend,
      '/api': backend,
      '/api-docs': backend,
      '/healthz': backend,
      '/readyz': backend,
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // bench/bundle.bench.ts reads the manifest to add up what /home loads.
    manifest: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // What every page runs first is one file, not twenty: over HTTP/1.1 each file costs a round trip.
          groups: [{ name: 'app', tags: ['$initial'] }],
        },
      },
    },
  },
});
