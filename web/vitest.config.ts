import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defaultClientConditions } from 'vite';
import { defineProject } from 'vitest/config';

// The project's root is this folder (vitest uses the config file's directory).
export default defineProject({
  plugins: [react()],
  resolve: {
    conditions: ['source', ...defaultClientConditions],
    alias: { 'virtual:antd-stylesheet': fileURLToPath(new URL('./src/test/antd-stylesheet.ts', import.meta.url)) },
  },
  test: {
    name: 'web',
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test/setup.ts'],
    // Whole-page tests type like a person and include the product's real 3 s waits; a loaded 2-core CI needs room.
    testTimeout: 20_000,
  },
});
