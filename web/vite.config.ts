import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig } from 'vite';

const backend = { target: 'http://127.0.0.1:8080', changeOrigin: false, ws: true };

export default defineConfig({
  plugins: [react()],
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
  },
});
