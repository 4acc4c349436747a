// The desktop surface on a real app, against the roadmap's budgets and a naive walk measured
// in the same run: GNOME Calculator (GTK 4) in a desktop session of its own (Xvfb, session bus,
// AT-SPI bus), the one a desktop tile runs, driven in process.
//   - session start (Xvfb + both buses + accessibility on) and the app's launch to its first
//     window on AT-SPI;
//   - the tree: Tessera's walk (one level at a time, each level's calls in parallel) against a
//     naive walk (the same calls, one after the other, node by node);
//   - pixels (capture, PNG) and one XTEST key through xdotool.
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { performance } from 'node:perf_hooks'
import { fmt, percentile } from './stats.js'

const DIST = join(dirname(fileURLToPath(import.meta.url)), '..', 'packages/surfaces/desktop/dist/index.js')
const RUNS = 5
/** The roadmap's budgets (seed 002), for the widget tree of LibreOffice Calc; measured here on the calculator. */
const BUDGET = { treeMs: 200, screenshotMs: 50, keyMs: 5, launchMs: 2000 }
const ACCESSIBLE = 'org.a11y.atspi.Accessible'

async function timed(fn) {
  const start = performance.now()
  const value = await fn()
  return { value, ms: performance.now() - start }
}

async function p50(n, fn) {
  const times = []
  for (let i = 0; i < n; i++) times.push((await timed(fn)).ms)
  return percentile(times.sort((a, b) => a - b), 50)
}

/** A naive walk: every call of every node awaited one after the other. */
async function naiveWalk(bus, refOf, ref) {
  let count = 1
  await bus.call(ref, ACCESSIBLE, 'GetRoleName')
  await bus.property(ref, ACCESSIBLE, 'Name').catch(() => '')
  await bus.call(ref, ACCESSIBLE, 'GetState').catch(() => [])
  await bus.call(ref, ACCESSIBLE, 'GetInterfaces').catch(() => [])
  const [children] = await bus.call(ref, ACCESSIBLE, 'GetChildren').catch(() => [[]])
  for (const child of (children ?? []).map(refOf)) if (child !== undefined) count += await naiveWalk(bus, refOf, child)
  return count
}

export async function benchDesktopSession() {
  if (!existsSync(DIST)) throw new Error('packages/surfaces/desktop/dist is missing: npm run build')
  const { DesktopSession, AtspiBus, walkAccessibles, missingPackagesFor } = await import(pathToFileURL(DIST).href)
  const missing = missingPackagesFor('gnome-calculator')
  if (missing.length > 0) throw new Error(`the desktop bench needs ${missing.join(', ')}: npm run bootstrap`)
  const sessionMs = await p50(3, async () => (await DesktopSession.start()).close())
  const launchStart = performance.now()
  const session = await DesktopSession.start()
  try {
    const bus = AtspiBus.connect(session.a11yBusAddress)
    const { refOf } = await import(pathToFileURL(join(dirname(DIST), 'atspi-bus.js')).href)
    try {
      session.launch(['gnome-calculator'])
      // Launch: until the app's window is on AT-SPI (bounded: 30 s).
      for (let i = 0; i < 300; i++) {
        const walked = await walkAccessibles(bus)
        if (walked.apps.some((app) => app.children.length > 0)) break
        await new Promise((done) => setTimeout(done, 100))
      }
      const launchMs = performance.now() - launchStart
      const first = await timed(() => walkAccessibles(bus))
      const widgets = first.value.count
      const walkMs = await p50(RUNS, () => walkAccessibles(bus))
      const root = { bus: 'org.a11y.atspi.Registry', path: '/org/a11y/atspi/accessible/root' }
      let naiveCount = 0
      const naiveMs = await p50(3, async () => {
        naiveCount = (await naiveWalk(bus, refOf, root)) - 1
      })
      const captureMs = await p50(RUNS, () => session.run('import', ['-display', session.display, '-window', 'root', 'png:-'], 10_000))
      const keyMs = await p50(RUNS, () => session.run('xdotool', ['key', 'shift']))
      const rows = [
        ['app', 'GNOME Calculator 43 (GTK 4) on Xvfb 1280×800, its own session and AT-SPI bus'],
        ['session start (Xvfb, session bus, AT-SPI bus, accessibility on), p50 of 3 (ms)', fmt(sessionMs, 0)],
        [`launch: session + app until its window is on AT-SPI (ms); budget ${BUDGET.launchMs}`, fmt(launchMs, 0)],
        [`widget tree, the walk right after launch / p50 of ${RUNS} (ms), budget ${BUDGET.treeMs} (for LibreOffice Calc); widgets`, `${fmt(first.ms, 0)} / ${fmt(walkMs, 0)}; ${widgets}`],
        ['peer: naive walk, the five base calls per widget one after the other (fewer than Tessera makes), p50 of 3 (ms); widgets', `${fmt(naiveMs, 0)}; ${naiveCount}`],
        ['**ratio Tessera walk / naive walk**', fmt(walkMs / naiveMs, 2)],
        [`screenshot, PNG through ImageMagick import, p50 (ms); budget ${BUDGET.screenshotMs}`, fmt(captureMs, 0)],
        [`one key through xdotool, p50 (ms); budget ${BUDGET.keyMs}`, fmt(keyMs, 1)],
      ]
      return {
        name: 'Desktop tiles: GNOME Calculator over Xvfb and AT-SPI against a naive walk',
        budget: `tree ≤ ${BUDGET.treeMs} ms, screenshot ≤ ${BUDGET.screenshotMs} ms, key ≤ ${BUDGET.keyMs} ms, launch ≤ ${BUDGET.launchMs} ms; walk faster than the naive one`,
        ok: walkMs <= BUDGET.treeMs && captureMs <= BUDGET.screenshotMs && keyMs <= BUDGET.keyMs && launchMs <= BUDGET.launchMs && walkMs < naiveMs,
        rows,
      }
    } finally {
      bus.disconnect()
    }
  } finally {
    await session.close()
  }
}
