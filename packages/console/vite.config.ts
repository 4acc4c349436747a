import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

// Served by the hub at `/`; assets under /assets with content-hashed names.
export default defineConfig({
  plugins: [react()],
  base: '/',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 2048,
  },
})
