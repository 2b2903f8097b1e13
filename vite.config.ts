import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { VitePWA } from 'vite-plugin-pwa';

// The server (src/server) serves dist/ and the API on one port; in dev, Vite proxies to it.
const backend = process.env.BACKEND_URL ?? 'http://localhost:8000';

export default defineConfig({
  plugins: [
    react(),
    tailwindcss(),
    // Issue 5: installable PWA. The service worker source is sw/sw.ts (injectManifest: Vite builds it and
    // injects the precache list). Registration is ours (src/client/lib/pwa.ts, workbox-window, prompt to update).
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'sw',
      filename: 'sw.ts',
      injectRegister: false,
      registerType: 'prompt',
      includeManifestIcons: false,
      injectManifest: {
        // The app shell: scripts, styles, index.html and the small images of the login screen.
        globPatterns: ['**/*.{js,css,html,svg,webmanifest}'],
        rollupFormat: 'iife',
      },
      manifest: {
        id: '/',
        name: process.env.APP_NAME || 'Staffing Back Office',
        short_name: 'Back Office',
        description: 'Back office for staffing and IT consulting: people, partners, documents and billing.',
        start_url: '/dashboard',
        scope: '/',
        display: 'standalone',
        orientation: 'any',
        // Light colours here; dark ones in user_preferences (Chromium's dark-mode manifest member) and, for
        // the page itself, in the <meta name="theme-color" media=...> tags of index.html.
        theme_color: '#4f46e5',
        background_color: '#f8fafc',
        // Not in vite-plugin-pwa's manifest type yet; written out as given.
        ...({ user_preferences: { color_scheme: { dark: { theme_color: '#020617', background_color: '#020617' } } } } as object),
        icons: [
          { src: '/pwa-192x192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/pwa-512x512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/pwa-maskable-512x512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      devOptions: { enabled: false },
    }),
  ],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 400,
    rollupOptions: {
      output: {
        // The framework core is shared by every screen; keep it in one long-cached chunk.
        manualChunks(id: string) {
          if (/node_modules\/(react|react-dom|scheduler)\//.test(id)) return 'react';
          return undefined;
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': { target: backend, changeOrigin: true, ws: true },
      '/sanctum': { target: backend, changeOrigin: true },
      '/app': { target: backend, ws: true },
    },
  },
});
