import { defineConfig } from 'vitest/config'

export default defineConfig({
  resolve: {
    // Tests run against the TypeScript sources of sibling workspaces, not their dist.
    conditions: ['tessera-source'],
  },
  test: {
    include: ['packages/**/*.test.ts', 'examples/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
})
