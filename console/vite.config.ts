/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * Built into dist/ and served by the service at /console/ (one origin: no CORS). `npm run dev`
 * (the root's `npm run console:dev`) serves it with hot reload on http://localhost:5173/console/,
 * calling the API on http://localhost:3000: the origin the service allows by default is 5173.
 */
export default defineConfig(({ mode }) => ({
  base: '/console/',
  // `npm run dev` calls the API on its own origin (CORS), unless VITE_API_BASE names another.
  define: mode === 'development' && !process.env['VITE_API_BASE']
    ? { 'import.meta.env.VITE_API_BASE': JSON.stringify('http://localhost:3000') }
    : {},
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
}));
