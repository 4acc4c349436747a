/**
 * Text that came from an agent or an app, made safe to print to a person: control
 * characters (escape sequences that clear a screen, hide text or write the clipboard)
 * become spaces. Zod-free, so the CLI can load it without the schemas.
 */
export function withoutControlCharacters(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ')
}
