import type { Response } from 'playwright-core'

/** Whether a navigation's answer commits no document, so the page stays: no content (204, 205), or a file to download. */
export function commitsNoDocument(response: Response): boolean {
  return response.status() === 204 || response.status() === 205 || /^\s*attachment/i.test(response.headers()['content-disposition'] ?? '')
}
