export * from './app-surface.js'
export { appKind, AppConfig } from './app-kind.js'
export { loadAppModule, type LoadedAppModule } from './load-app-module.js'
