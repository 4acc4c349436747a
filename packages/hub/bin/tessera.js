#!/usr/bin/env node
// The CLI's installed entry point. It exists in the checkout before the first build, so
// `npm install` links it as node_modules/.bin/tessera and `npx tessera` finds it without
// installing anything; the CLI itself is the compiled dist/cli/main.js.
const main = new URL('../dist/cli/main.js', import.meta.url)
try {
  await import(main.href)
} catch (error) {
  if (error?.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes(main.pathname)) {
    process.stderr.write('tessera: the CLI is not built yet; run `npm run build` (or `npm start`) in the checkout first\n')
    process.exit(1)
  }
  throw error
}
