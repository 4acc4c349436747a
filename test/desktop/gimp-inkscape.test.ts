import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { removeDir, useTestHub, useAgentClient } from '../support/hub.js'

/**
 * The GIMP and Inkscape schemas (packages/surfaces/desktop/apps) on the real apps, as an agent
 * uses them over MCP: each app launched with gui_app_launch, its custom actions run as
 * `app.<name>` contracts and what they wrote checked on disk, and discovery reading the app's
 * menus beside the schema's shortcuts. scripts/bootstrap installs both; without one, a plain
 * run skips its part and a CI run fails.
 */
const ci = process.env.CI === 'true'

/** Why an app cannot run here, or undefined when it can. GIMP 2.10 is GTK 2: it reaches AT-SPI only through libatk-adaptor's module. */
function missing(probes: Record<string, string>): string | undefined {
  const absent = Object.entries(probes).filter(([, probe]) => !existsSync(probe)).map(([pkg]) => pkg)
  return absent.length === 0 ? undefined : `missing Debian packages: ${absent.join(', ')} (run scripts/bootstrap)`
}
const inkscapeMissing = missing({ inkscape: '/usr/bin/inkscape' })
const gimpMissing = missing({ gimp: '/usr/bin/gimp', 'libatk-adaptor': '/etc/environment.d/90atk-adaptor.conf' })

interface Report {
  app_name: string
  toolkit: string
  schema_available: boolean
  capabilities: { menus: Array<{ name: string; items: number }>; shortcuts: Array<{ keys: string; action: string; source: string }> }
}

/** A discovered menu shortcut for an action the schema also names, with other keys: the schema and the app disagree. */
function disagreements(report: Report): string[] {
  const last = (action: string): string => action.split(' › ').at(-1) ?? action
  const schema = report.capabilities.shortcuts.filter((s) => s.source === 'schema')
  return report.capabilities.shortcuts
    .filter((s) => s.source === 'discovered')
    .flatMap((found) => schema.filter((s) => s.action === last(found.action) && s.keys !== found.keys).map((s) => `${s.action}: schema ${s.keys}, menu ${found.keys}`))
}

describe.skipIf(inkscapeMissing !== undefined && !ci)('Inkscape as a tile', () => {
  const t = useTestHub({ tiles: [] })
  const { call } = useAgentClient(t)
  const saved = mkdtempSync(join(tmpdir(), 'tessera-inkscape-saved-'))
  let tile = ''

  beforeAll(() => {
    if (inkscapeMissing !== undefined) throw new Error(inkscapeMissing)
  })
  afterAll(() => {
    removeDir(saved)
  })

  it('launches Inkscape straight to a new document, past its start screen', async () => {
    const launched = await call('gui_app_launch', { app: 'inkscape' })
    expect(launched.isError, launched.text).toBe(false)
    tile = String(launched.json?.tile_id)
    const tree = (await call('gui_get_widget_tree', { tile_id: tile, depth: 3 })).text
    expect(tree).toContain('window "New document 1 - Inkscape"')
    expect(tree).not.toMatch(/^ {4}dialog /m)
  }, 60_000)

  it('saves the drawing with app.save_as_svg: an SVG file at the path, named as asked', async () => {
    const file = join(saved, 'drawing.svg')
    const bad = await call('action_request', { surface: tile, action: 'app.save_as_svg', input: { path: join(saved, 'drawing.png') } })
    expect(bad.json?.result?.error?.code, bad.text).toBe('invalid_input')
    const save = await call('action_request', { surface: tile, action: 'app.save_as_svg', input: { path: file } })
    expect(save.json?.result?.status, save.text).toBe('completed')
    expect(existsSync(file)).toBe(true)
    const svg = readFileSync(file, 'utf8')
    expect(svg.startsWith('<?xml')).toBe(true)
    expect(svg).toMatch(/<svg\b[^>]*\bxmlns="http:\/\/www\.w3\.org\/2000\/svg"/)
    // The dialog's Name field was emptied first, so the ending was not kept twice (drawing.svg.svg).
    expect(svg).toContain('sodipodi:docname="drawing.svg"')
    const tree = (await call('gui_get_widget_tree', { tile_id: tile, depth: 3 })).text
    expect(tree).toContain('window "drawing.svg - Inkscape"')
    expect(tree).not.toContain('dialog "Select file to save to"')
  }, 60_000)

  it('discovers Inkscape\'s menus, and its schema\'s shortcuts agree with them', async () => {
    const report = await call('gui_discover_capabilities', { tile_id: tile })
    expect(report.isError, report.text).toBe(false)
    const json = report.json as unknown as Report
    expect(json).toMatchObject({ app_name: 'inkscape', toolkit: 'gtk3', schema_available: true })
    expect(json.capabilities.menus.map((menu) => menu.name)).toEqual(['File', 'Edit', 'View', 'Layer', 'Object', 'Path', 'Text', 'Filters', 'Extensions', 'Help'])
    expect(json.capabilities.menus.reduce((sum, menu) => sum + menu.items, 0)).toBeGreaterThan(300)
    expect(disagreements(json)).toEqual([])
    const shortcuts = await call('gui_get_shortcuts', { tile_id: tile, category: 'file' })
    expect(shortcuts.isError, shortcuts.text).toBe(false)
    const listed = shortcuts.json?.shortcuts as Array<{ keys: string; action: string }>
    expect(listed).toContainEqual(expect.objectContaining({ keys: 'Ctrl+Shift+S', action: 'Save As...' }))
    // In no schema: read from the File menu.
    expect(listed).toContainEqual(expect.objectContaining({ keys: 'Ctrl+Shift+D', action: 'Document Properties...' }))
  }, 60_000)
})

describe.skipIf(gimpMissing !== undefined && !ci)('GIMP as a tile', () => {
  const t = useTestHub({ tiles: [] })
  const { call } = useAgentClient(t)
  const saved = mkdtempSync(join(tmpdir(), 'tessera-gimp-saved-'))
  let tile = ''

  beforeAll(() => {
    if (gimpMissing !== undefined) throw new Error(gimpMissing)
  })
  afterAll(() => {
    removeDir(saved)
  })

  it('launches GIMP (GTK 2) with no image: Export As is disabled until there is one', async () => {
    const launched = await call('gui_app_launch', { app: 'gimp' })
    expect(launched.isError, launched.text).toBe(false)
    tile = String(launched.json?.tile_id)
    const tree = (await call('gui_get_widget_tree', { tile_id: tile })).text
    expect(tree).toContain('window "GNU Image Manipulation Program"')
    expect(tree).toMatch(/menuitem "Export As\.\.\." [^\n]*\(disabled\)/)
  }, 60_000)

  it('makes an image with app.new_image and exports it with app.export_as: a PNG file of its size', async () => {
    const made = await call('action_request', { surface: tile, action: 'app.new_image', input: {} })
    expect(made.json?.result?.status, made.text).toBe('completed')
    expect((await call('gui_get_widget_tree', { tile_id: tile, depth: 3 })).text).toMatch(/window "\[Untitled\]-1\.0 [^"]* 1920x1080 – GIMP"/)
    const selected = await call('action_request', { surface: tile, action: 'app.select_all', input: {} })
    expect(selected.json?.result?.status, selected.text).toBe('completed')

    const file = join(saved, 'export.png')
    const bad = await call('action_request', { surface: tile, action: 'app.export_as', input: { path: join(saved, 'export.jpg') } })
    expect(bad.json?.result?.error?.code, bad.text).toBe('invalid_input')
    const exported = await call('action_request', { surface: tile, action: 'app.export_as', input: { path: file } })
    expect(exported.json?.result?.status, exported.text).toBe('completed')
    expect(existsSync(file)).toBe(true)
    const png = readFileSync(file)
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
    expect(png.subarray(12, 16).toString('latin1')).toBe('IHDR')
    expect({ width: png.readUInt32BE(16), height: png.readUInt32BE(20) }).toEqual({ width: 1920, height: 1080 })
    // Both dialogs closed, and GIMP says where the image went (not export.png.png); the star is
    // the selection's change, which an export does not save.
    const tree = (await call('gui_get_widget_tree', { tile_id: tile, depth: 3 })).text
    expect(tree).toMatch(/window "\*\[export\] \(exported\)-1\.0 [^"]* – GIMP"/)
    expect(tree).not.toMatch(/dialog "Export Image/)
    expect((await call('gui_find_widget', { tile_id: tile, role: 'statusbar' })).text).toContain(`Image exported to '${file}'`)
  }, 90_000)

  it('sends keys to a dialog that is open though neither modal nor active yet (GIMP\'s Export Image)', async () => {
    expect((await call('gui_send_keys', { tile_id: tile, keys: 'Shift+Ctrl+E' })).json).toMatchObject({ success: true })
    const open = await call('action_request', { surface: tile, action: 'wait_for', input: { role: 'dialog', name: 'Export Image' } })
    expect(open.json?.result?.status, open.text).toBe('completed')
    const name = async (): Promise<string> => String(((await call('gui_find_widget', { tile_id: tile, role: 'textbox', label: 'Name' })).json?.widgets as Array<{ value?: string }> | undefined)?.[0]?.value ?? '')
    expect(await name()).toContain('.png')
    await call('gui_send_keys', { tile_id: tile, keys: 'ctrl+a BackSpace' })
    expect(await name()).toBe('')
    // Best first: of the Cancel buttons, the dialog's enabled one.
    const cancel = /@([n1-9][0-9a-z.]*)/.exec((await call('gui_find_widget', { tile_id: tile, role: 'button', label: 'Cancel' })).text)?.[1]
    const cancelled = await call('surface_act', { surface: tile, ref: cancel, op: 'click' })
    expect(cancelled.isError, cancelled.text).toBe(false)
    const gone = await call('action_request', { surface: tile, action: 'wait_for', input: { role: 'dialog', name: 'Export Image', gone: true } })
    expect(gone.json?.result?.status, gone.text).toBe('completed')
  }, 60_000)

  it('discovers GIMP\'s menus, and its schema\'s shortcuts agree with them', async () => {
    const report = await call('gui_discover_capabilities', { tile_id: tile })
    expect(report.isError, report.text).toBe(false)
    const json = report.json as unknown as Report
    // GTK 2 speaks through GAIL; its version says 2.
    expect(json).toMatchObject({ app_name: 'gimp', toolkit: 'gtk2', schema_available: true })
    expect(json.capabilities.menus.map((menu) => menu.name)).toEqual(['File', 'Edit', 'Select', 'View', 'Image', 'Layer', 'Colors', 'Tools', 'Filters', 'Windows', 'Help'])
    expect(json.capabilities.menus.reduce((sum, menu) => sum + menu.items, 0)).toBeGreaterThan(500)
    expect(disagreements(json)).toEqual([])
    const tools = await call('gui_get_shortcuts', { tile_id: tile, category: 'tools' })
    expect(tools.isError, tools.text).toBe(false)
    const listed = tools.json?.shortcuts as Array<{ keys: string; action: string }>
    expect(listed).toContainEqual(expect.objectContaining({ keys: 'Shift+S', action: 'Scale' }))
    // In no schema: read from the Tools menu.
    expect(listed).toContainEqual(expect.objectContaining({ keys: 'Shift+R', action: 'Transform Tools › Rotate' }))
  }, 60_000)
})
