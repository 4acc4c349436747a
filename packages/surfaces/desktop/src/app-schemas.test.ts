import { readFileSync } from 'node:fs'
import { Ajv2020 } from 'ajv/dist/2020.js'
import { describe, expect, it } from 'vitest'
import { APP_SCHEMAS, parseAppSchema } from './app-schemas.js'
import { customContracts } from './custom-actions.js'
import { parseChords } from './key-chords.js'

const published = JSON.parse(readFileSync(new URL('../../../../docs/schemas/app_schema.schema.json', import.meta.url), 'utf8')) as Record<string, unknown>

describe('the shipped app schemas', () => {
  it('ships the five the desktop surface promises and a web build, each valid against the published JSON Schema', () => {
    expect(APP_SCHEMAS.map((schema) => schema.app)).toEqual(['gimp', 'gnome-calculator', 'inkscape', 'libreoffice-calc', 'mousepad', 'pdfjs'])
    expect(APP_SCHEMAS.filter((schema) => schema.web !== undefined).map((schema) => schema.app)).toEqual(['pdfjs'])
    const ajv = new Ajv2020({ strict: false })
    const validate = ajv.compile(published)
    for (const schema of APP_SCHEMAS) {
      const file = JSON.parse(readFileSync(new URL(`../apps/${schema.app}.json`, import.meta.url), 'utf8')) as unknown
      expect(validate(file), `${schema.app}: ${JSON.stringify(validate.errors)}`).toBe(true)
    }
  })

  it('writes every shortcut and key step as chords gui_send_keys takes', () => {
    for (const schema of APP_SCHEMAS) {
      for (const shortcut of schema.shortcuts) expect(() => parseChords(shortcut.keys), `${schema.app} ${shortcut.keys}`).not.toThrow()
      for (const action of schema.custom_actions) for (const step of action.steps) if ('keys' in step) expect(() => parseChords(step.keys)).not.toThrow()
    }
  })

  it('turns custom actions into contracts with their own input schema and risk', () => {
    const calc = APP_SCHEMAS.find((schema) => schema.app === 'gnome-calculator')
    const [compute] = customContracts(calc!)
    expect(compute).toMatchObject({ id: 'app.compute', risk: 'write', inputSchema: { required: ['expression'] } })
    expect((compute?.outputSchema as { properties: Record<string, unknown> }).properties).toHaveProperty('result')
  })
})

describe('a schema that does not hold together', () => {
  const base = { app: 'x', title: 'X', version: '1', toolkit: 'gtk3', package: 'x', launch: { command: ['x'] }, shortcuts: [{ keys: 'Ctrl+S', action: 'Save', category: 'file' }] }
  const withAction = (steps: unknown[], params?: unknown): string => JSON.stringify({ ...base, custom_actions: [{ name: 'go', title: 'Go', risk: 'write', steps, ...(params === undefined ? {} : { params }) }] })

  it('is refused with the path and what was expected', () => {
    expect(() => parseAppSchema(withAction([{ press: { widget: 'nope' } }]), 'x.json')).toThrow(/custom_actions.0.steps.0 expected one of the schema's widgets, found "nope"/)
    expect(() => parseAppSchema(withAction([{ shortcut: 'Open' }]), 'x.json')).toThrow(/expected one of the schema's shortcut actions, found "Open"/)
    expect(() => parseAppSchema(withAction([{ type: '{path}' }]), 'x.json')).toThrow(/expected a declared param, found \{path\}/)
    expect(() => parseAppSchema(withAction([{ fly: true }]), 'x.json')).toThrow(/x.json: custom_actions.0.steps.0/)
    expect(() => parseAppSchema('{"app": ', 'x.json')).toThrow(/x.json is not JSON/)
    expect(() => parseAppSchema(JSON.stringify({ ...base, toolkit: 'motif' }), 'x.json')).toThrow(/toolkit/)
    const { launch: _launch, ...unlaunchable } = base
    expect(() => parseAppSchema(JSON.stringify(unlaunchable), 'x.json')).toThrow(/expected launch \(a native build\) or web \(a web build\), found neither/)
    expect(() => parseAppSchema(JSON.stringify({ ...unlaunchable, web: { root: 'relative', entry: 'index.html' } }), 'x.json')).toThrow(/web.root expected an absolute folder/)
    expect(() => parseAppSchema(JSON.stringify({ ...unlaunchable, web: { root: '/srv/app', entry: 'web/../../etc/passwd' } }), 'x.json')).toThrow(/web.entry expected a page inside root/)
    expect(parseAppSchema(JSON.stringify({ ...unlaunchable, web: { root: '/srv/app', entry: 'web/viewer.html' } }), 'x.json').web?.entry).toBe('web/viewer.html')
  })

  it('is taken when its steps name what it declares', () => {
    const ok = parseAppSchema(withAction([{ shortcut: 'Save' }, { type: '{path}' }], { path: { type: 'string' } }), 'x.json')
    expect(ok.custom_actions[0]?.steps).toHaveLength(2)
  })
})
