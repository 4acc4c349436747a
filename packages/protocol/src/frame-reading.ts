/**
 * The pure parts of reading a frame — node states, risk order, hit-testing — with no schema
 * library and no Node built-in behind them, for code that runs in a browser (the console,
 * the DOM renderer). Everything here is also exported from the package's main entry.
 */
export { isDisabled, isHidden, isSensitive } from './tree/node-states.js'
export { findNode, hitTest } from './tree/hit-test.js'
export { maxRisk, riskAtLeast, RISK_ORDER } from './risk.js'
