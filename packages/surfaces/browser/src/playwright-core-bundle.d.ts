/**
 * The one part of playwright-core's bundle (exported by its package, not typed) the browser
 * uses: Playwright's own parser of selectors and locator code, so a selector means here
 * exactly what it means to Playwright.
 */
declare module 'playwright-core/lib/coreBundle' {
  const coreBundle: {
    iso?: {
      /** A locator's code (`getByRole('button', { name: 'Save' })`) or a selector, as one selector; '' when it parses as neither. */
      locatorOrSelectorAsSelector?: (language: 'javascript', text: string, testIdAttribute: string) => string
    }
  }
  export default coreBundle
}
