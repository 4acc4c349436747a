import { describe, expect, it } from 'vitest'
import { type KnownApp, backendsOf, packagesMissing, selectBackend } from './desktop-apps.js'

const app = (overrides: Partial<KnownApp>): KnownApp => ({ name: 'x', title: 'X', command: undefined, env: {}, profileArg: undefined, profileEnv: undefined, pkg: 'x', requires: [], toolkit: 'gtk3', keepReady: false, web: undefined, ...overrides })
const native = app({ command: ['/bin/sh'] })
const webOnly = app({ title: 'Viewer', web: { root: '/nonexistent', entry: 'index.html', documentParam: undefined } })
const both = app({ command: ['/bin/sh'], web: { root: '/nonexistent', entry: 'index.html', documentParam: undefined } })

describe('select_backend', () => {
  it('lists an app\'s builds, the web build first as the roadmap orders them', () => {
    expect(backendsOf(native)).toEqual(['native'])
    expect(backendsOf(webOnly)).toEqual(['wasm'])
    expect(backendsOf(both)).toEqual(['wasm', 'native'])
  })

  it('takes the backend asked for when the app has that build, and refuses one it has not, naming its builds', () => {
    expect(selectBackend(both, 'native')).toBe('native')
    expect(selectBackend(both, 'wasm')).toBe('wasm')
    expect(() => selectBackend(native, 'wasm')).toThrow(/X has no web \(wasm\) build; its backends: native/)
    expect(() => selectBackend(webOnly, 'native')).toThrow(/Viewer has no native build; its backends: wasm/)
  })

  it('with auto, picks the first build installed here, else the first (whose error then says what to install)', () => {
    // The web build's files are missing: auto falls back to the native build, which is.
    expect(selectBackend(both, 'auto')).toBe('native')
    expect(selectBackend(webOnly, 'auto')).toBe('wasm')
  })
})

describe('what an app needs', () => {
  it('names the packages a native build lacks: its own, and those it requires by a file they install', async () => {
    const { missingPackagesFor } = await import('./desktop-apps.js')
    // GIMP's schema requires libatk-adaptor (GTK 2's way to AT-SPI): listed exactly when its file is absent.
    const { existsSync } = await import('node:fs')
    const lacksAdaptor = !existsSync('/etc/environment.d/90atk-adaptor.conf')
    expect(missingPackagesFor('gimp', 'native').includes('libatk-adaptor')).toBe(lacksAdaptor)
    const needy = app({ command: ['/bin/sh'], requires: [{ package: 'left-out', file: '/nonexistent/file' }, { package: 'present', file: '/bin/sh' }] })
    expect(packagesMissing(needy, 'native')).toEqual(['left-out'])
    expect(packagesMissing(app({ command: ['/nonexistent/app'] }), 'native')).toEqual(['x'])
    expect(packagesMissing(webOnly, 'wasm')).toContain('x')
  })
})
