export { claimsReview, claimsReview as default } from './app.js'
export * from './claims.js'
export { conformance } from './conformance.js'
