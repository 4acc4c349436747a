import { Risk } from '@tessera/protocol'
import { z } from 'zod'

/**
 * What Tessera knows about an app before it looks at it: how to start it, its shortcuts, the
 * widgets worth naming, and custom actions — sequences of shortcuts and widget actions that
 * run as contracts of the tile. Shipped as JSON in `apps/`, validated by this schema (and
 * published from it as docs/schemas/app_schema.schema.json).
 */

const Name = z.string().regex(/^[a-z][a-z0-9_-]{0,63}$/, 'expected lowercase letters, digits, "_" or "-", starting with a letter')

/** Key chords as a person writes them: `Ctrl+Shift+S`, `Return`, `ctrl+a Delete`. */
const Chords = z.string().min(1).max(200)

/** What the app is built with; `web`: a web or WASM build, run in Chromium (the `wasm` backend). */
export const Toolkit = z.enum(['gtk2', 'gtk3', 'gtk4', 'qt5', 'qt6', 'vcl', 'electron', 'web'])
export type Toolkit = z.infer<typeof Toolkit>

export const SchemaShortcut = z.strictObject({
  keys: Chords,
  /** What it does, as the app's menu says it ("Save As…"). */
  action: z.string().min(1).max(200),
  /** file, edit, view, navigate, format, tools, help… */
  category: z.string().regex(/^[a-z][a-z0-9-]{0,39}$/),
  description: z.string().max(500).optional(),
})
export type SchemaShortcut = z.infer<typeof SchemaShortcut>

/** A widget by role (as the frame says it: button, textbox, menuitem…) and its name, whole, any letter case; `{param}` parts are filled in. */
export const WidgetQuery = z.strictObject({
  role: z.string().min(1).max(40),
  name: z.string().min(1).max(200).optional(),
})
export type WidgetQuery = z.infer<typeof WidgetQuery>

export const SchemaWidget = z.strictObject({
  id: Name,
  role: z.string().min(1).max(40),
  name: z.string().min(1).max(200).optional(),
  description: z.string().max(500).optional(),
})

/** One of the schema's widgets by id, or a widget by role and name. */
const WidgetRef = z.union([z.strictObject({ widget: Name }), WidgetQuery])
export type WidgetRef = z.infer<typeof WidgetRef>

/** One step of a custom action. Strings may hold `{param}` parts, filled from the call's input. */
export const Step = z.union([
  /** Press key chords in the app. */
  z.strictObject({ keys: Chords }),
  /** Press the keys of one of this schema's shortcuts, named by its action. */
  z.strictObject({ shortcut: z.string().min(1).max(200) }),
  /** Run a widget's own action (a button's press). */
  z.strictObject({ press: WidgetRef }),
  /**
   * Put text into a text field: `into` one, or the one that has the keyboard. With `replace`,
   * the text becomes the field's whole text (a file dialog's name field selects only the name
   * before its ending when it takes the focus: typed alone, `x.svg` would become `x.svg.svg`).
   */
  z.strictObject({ type: z.string().max(100_000), into: WidgetRef.optional(), replace: z.boolean().optional() }),
  /** Wait for a widget to appear (or with `gone`, to go), at most `time` seconds. */
  z.strictObject({ wait_for: z.strictObject({ role: z.string().min(1).max(40), name: z.string().min(1).max(200).optional(), gone: z.boolean().optional(), time: z.number().min(0).max(30).optional() }) }),
  /** Read a widget's value or text into the action's answer, as `as`. */
  z.strictObject({ read: WidgetRef, as: Name }),
])
export type Step = z.infer<typeof Step>

const Param = z.strictObject({
  type: z.enum(['string', 'number', 'integer']),
  description: z.string().max(500).optional(),
  /** For strings: what the value must look like (a JSON Schema pattern). */
  pattern: z.string().max(500).optional(),
  maxLength: z.number().int().min(1).max(100_000).optional(),
})

export const CustomAction = z.strictObject({
  /** Runs as the tile's contract `app.<name>`. */
  name: z.string().regex(/^[a-z][a-z0-9_]{0,59}$/, 'expected lowercase letters, digits and "_", starting with a letter'),
  title: z.string().min(1).max(200),
  description: z.string().max(1000).optional(),
  /** As any contract's: destructive and external actions wait for a person. */
  risk: Risk,
  params: z.record(Name, Param).optional(),
  steps: z.array(Step).min(1).max(64),
})
export type CustomAction = z.infer<typeof CustomAction>

export const AppSchema = z
  .strictObject({
    $schema: z.string().optional(),
    /** The name agents launch it by. */
    app: Name,
    title: z.string().min(1).max(200),
    /** The app's version this schema was written against (`46`, `7.4`, `0.18`). */
    version: z.string().min(1).max(40),
    toolkit: Toolkit,
    /** The Debian package that brings it. */
    package: z.string().regex(/^[a-z0-9][a-z0-9+.-]{0,63}$/),
    /**
     * Other Debian packages its native build needs in a tile, each found by a file it installs
     * (GIMP 2.10 is GTK 2: it reaches AT-SPI only through libatk-adaptor's module). A launch
     * without one says which to install instead of waiting for a window that never comes.
     */
    requires: z.array(z.strictObject({ package: z.string().regex(/^[a-z0-9][a-z0-9+.-]{0,63}$/), file: z.string().regex(/^\//, 'expected an absolute path').max(4096) })).max(20).optional(),
    launch: z.strictObject({
      command: z.array(z.string().min(1).max(4096)).min(1).max(64),
      /** Variables the app needs in its session (LibreOffice's SAL_USE_VCLPLUGIN). */
      env: z.record(z.string().regex(/^[A-Z_][A-Z0-9_]*$/), z.string().max(4096)).optional(),
      /**
       * An argument that puts the app's profile in a folder of the tile's (`{profile}`, an
       * absolute path). The first tile's fresh profile is kept as a template and copied into
       * the next tiles', so they skip the app's first-start setup.
       */
      profile_arg: z.string().min(1).max(500).regex(/\{profile\}/, 'expected a {profile} part').optional(),
      /** Or a variable that does it (GIMP's `GIMP2_DIRECTORY`: `{profile}`), for an app that takes its profile folder from its environment. */
      profile_env: z.record(z.string().regex(/^[A-Z_][A-Z0-9_]*$/), z.string().max(500).regex(/\{profile\}/, 'expected a {profile} part')).optional(),
    })
      .optional()
      .describe('How to start its native build on a display of its own (the native backend)'),
    /**
     * Its web or WASM build (the `wasm` backend): static files served on loopback to Chromium
     * running in app mode on the tile's display. `entry` is the page to open, relative to
     * `root`; a document a person configures is handed to it as `?<document_param>=<url>`.
     */
    web: z
      .strictObject({
        root: z.string().regex(/^\//, 'expected an absolute folder').max(4096),
        entry: z
          .string()
          .regex(/^[A-Za-z0-9._-][A-Za-z0-9._/-]*$/, 'expected a relative path')
          .max(500)
          .refine((entry) => !entry.split('/').includes('..'), 'expected a page inside root'),
        document_param: z.string().regex(/^[A-Za-z0-9_]{1,40}$/).optional(),
      })
      .optional(),
    /**
     * Keep one more copy started and parked once the app has been opened (either build), so the
     * next launch takes it instead of waiting: for apps that start slowly (LibreOffice, 3 s here;
     * a web build, Chromium's 2 s).
     */
    keep_ready: z.boolean().optional(),
    shortcuts: z.array(SchemaShortcut).max(1000),
    widgets: z.array(SchemaWidget).max(500).default([]),
    custom_actions: z.array(CustomAction).max(100).default([]),
  })
  .superRefine((schema, ctx) => {
    if (schema.launch === undefined && schema.web === undefined) ctx.addIssue({ code: 'custom', path: ['launch'], message: 'expected launch (a native build) or web (a web build), found neither' })
    // A step that names what the schema does not have fails when the schema loads, not when it runs.
    const widgets = new Set(schema.widgets.map((widget) => widget.id))
    const shortcuts = new Set(schema.shortcuts.map((shortcut) => shortcut.action))
    schema.custom_actions.forEach((action, a) => {
      const params = new Set(Object.keys(action.params ?? {}))
      action.steps.forEach((step, s) => {
        const path = ['custom_actions', a, 'steps', s]
        const ref = 'press' in step ? step.press : 'read' in step ? step.read : 'into' in step ? step.into : undefined
        if (ref !== undefined && 'widget' in ref && !widgets.has(ref.widget)) ctx.addIssue({ code: 'custom', path, message: `expected one of the schema's widgets, found "${ref.widget}"` })
        if ('shortcut' in step && !shortcuts.has(step.shortcut)) ctx.addIssue({ code: 'custom', path, message: `expected one of the schema's shortcut actions, found "${step.shortcut}"` })
        for (const [, used] of JSON.stringify(step).matchAll(/\{([a-z][a-z0-9_-]*)\}/g)) if (!params.has(used as string)) ctx.addIssue({ code: 'custom', path, message: `expected a declared param, found {${used}}` })
      })
    })
  })
export type AppSchema = z.infer<typeof AppSchema>
