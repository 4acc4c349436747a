import ora, { type Ora } from 'ora'

/** A spinner on stderr for a terminal; plain progress lines when piped or in CI. Only long commands load it. */
export function progress(text: string): Ora {
  return ora({ text, stream: process.stderr, isEnabled: process.stderr.isTTY === true && process.env.CI !== 'true' }).start()
}
