import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url))

/**
 * Tests that spend minutes waiting on a program (two-minute proofs, asleep nearly all the
 * time): run one after another with the rest on two cores, they added four minutes of wall
 * time and no work.
 */
const WAITING = ['test/client/long-command.test.ts', 'test/terminal/two-minute-program.test.ts']

export default defineConfig({
  resolve: {
    // Tests run against the TypeScript sources of sibling workspaces, never a stale dist.
    alias: {
      // Before '@tessera/protocol', which would otherwise take it as a prefix.
      '@tessera/protocol/errors': source('./packages/protocol/src/tessera-error.ts'),
      '@tessera/protocol/printable': source('./packages/protocol/src/printable.ts'),
      '@tessera/protocol/frame-reading': source('./packages/protocol/src/frame-reading.ts'),
      '@tessera/ui/render-dom': source('./packages/ui/src/render-dom.ts'),
      '@tessera/protocol': source('./packages/protocol/src/index.ts'),
      '@tessera/kit': source('./packages/kit/src/index.ts'),
      '@tessera/ui': source('./packages/ui/src/index.ts'),
      '@tessera/gateway': source('./packages/gateway/src/index.ts'),
      '@tessera/surface-app': source('./packages/surfaces/app/src/index.ts'),
      '@tessera/surface-terminal': source('./packages/surfaces/terminal/src/index.ts'),
      '@tessera/surface-files': source('./packages/surfaces/files/src/index.ts'),
      '@tessera/surface-browser': source('./packages/surfaces/browser/src/index.ts'),
      '@tessera/surface-desktop': source('./packages/surfaces/desktop/src/index.ts'),
      '@tessera/sdk': source('./packages/sdk/src/index.ts'),
      '@tessera/client': source('./packages/client/src/index.ts'),
      '@tessera/hub': source('./packages/hub/src/index.ts'),
      '@tessera/example-claims-review': source('./examples/claims-review/src/index.ts'),
    },
  },
  test: {
    exclude: ['**/node_modules/**', '**/dist/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Each pool runs beside the others, each with its own workers: the threads pool is only
    // for the tests that wait, so both can wait together.
    poolOptions: { threads: { maxThreads: WAITING.length, minThreads: 1 } },
    projects: [
      { extends: true, test: { name: 'suite', include: ['packages/**/*.test.ts', 'examples/**/*.test.ts', 'test/**/*.test.ts'], exclude: ['**/node_modules/**', '**/dist/**', ...WAITING] } },
      { extends: true, test: { name: 'waiting', include: [...WAITING], pool: 'threads' } },
    ],
  },
})
