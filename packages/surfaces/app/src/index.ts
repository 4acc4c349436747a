export * from './app-surface.js'
