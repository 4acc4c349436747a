import { createRequire } from 'node:module'

/**
 * The pure-JS X11 client (`x11`), loaded as the CommonJS module it is. It ships no types: the
 * little of it Tessera uses is described here and in x-display.ts.
 */
export interface X11Module {
  keySyms: Record<string, { code: number }>
  createClient(options: { display: string }, callback: (error: Error | null, display: unknown) => void): { on(event: 'error', listener: (error: Error) => void): void }
}

export const x11 = createRequire(import.meta.url)('x11') as X11Module
