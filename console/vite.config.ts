/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * Served by the service at /console/ (one origin: no CORS), or by `npm run dev` on
 * http://localhost:5173/console/ against the API on http://localhost:3000 (VITE_API_BASE, set by
 * the root's `npm run console:dev`), the origin the service allows by default.
 */
export default defineConfig({
  base: '/console/',
  plugins: [react()],
  server: { port: 5173, strictPort: true, host: 'localhost' },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Every supported browser has module preload; the polyfill would only add bytes.
    modulePreload: { polyfill: false },
    sourcemap: false,
    // The page's CSP allows nothing inline: keep every asset a file, never a data: URL.
    assetsInlineLimit: 0,
  },
  test: {
    environment: 'jsdom',
    setupFiles: ['./test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    // Generous: a shared CI machine can be slow to start jsdom and render a screen.
    testTimeout: 30_000,
  },
});
