import type { AccessibleRef, AtspiBus } from './atspi-bus.js'

/** Apps already asked, per accessibility bus (an app is known by its bus name and path). */
const asked = new WeakMap<AtspiBus, Set<string>>()

/**
 * Asks each app, once, what only a screen reader asks: its relation set. Chromium (and so every
 * Electron app) started without `--force-renderer-accessibility` shows its window on AT-SPI
 * with a null child, and builds its page's accessibility only once a client asks that. An app
 * behind a wrapper cannot be given the flag. Other toolkits answer with an empty set.
 */
export async function announceReader(bus: AtspiBus, apps: readonly AccessibleRef[]): Promise<void> {
  const seen = asked.get(bus) ?? new Set<string>()
  asked.set(bus, seen)
  const key = (app: AccessibleRef): string => `${app.bus}|${app.path}`
  await Promise.all(
    apps
      .filter((app) => !seen.has(key(app)))
      .map((app) =>
        bus.call(app, 'org.a11y.atspi.Accessible', 'GetRelationSet').then(
          () => seen.add(key(app)),
          // An app that does not answer yet (still starting, or quitting) is asked again on the next walk.
          () => undefined,
        ),
      ),
  )
}
