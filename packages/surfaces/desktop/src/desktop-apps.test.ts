import { describe, expect, it } from 'vitest'
import { type KnownApp, backendsOf, selectBackend } from './desktop-apps.js'

const app = (overrides: Partial<KnownApp>): KnownApp => ({ name: 'x', title: 'X', command: undefined, env: {}, profileArg: undefined, profileEnv: undefined, pkg: 'x', toolkit: 'gtk3', keepReady: false, web: undefined, ...overrides })
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
