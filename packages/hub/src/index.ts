export { loadAppModule, type LoadedAppModule } from './cli/load-app-module.js'
