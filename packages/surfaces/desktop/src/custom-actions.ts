import type { ActionContractInput, Frame, JsonObject, JsonValue } from '@tessera/protocol'
import { TesseraError } from '@tessera/protocol'
import type { AppSchema, CustomAction, Step, WidgetQuery, WidgetRef } from './app-schema.js'
import { typingField, widgetByQuery } from './frame-widgets.js'

/** The contract id a schema's custom action runs as. */
export const customActionId = (name: string): string => `app.${name}`

/** What a custom action needs of the tile it runs on. */
export interface CustomActionHost {
  snapshot(): Promise<Frame>
  keys(chords: string): Promise<unknown>
  press(nodeId: string): Promise<unknown>
  typeInto(nodeId: string, text: string, submit: boolean, replace?: boolean): Promise<unknown>
  waitFor(input: { role: string; name?: string | undefined; gone?: boolean | undefined; time?: number | undefined }, signal: AbortSignal): Promise<unknown>
}

/** A schema's custom actions as contracts of its tile: each with its own input schema and risk, run through the gateway like any other. */
export function customContracts(schema: AppSchema): ActionContractInput[] {
  return schema.custom_actions.map((action) => {
    const properties: JsonObject = {}
    for (const [name, param] of Object.entries(action.params ?? {})) {
      properties[name] = { type: param.type, ...(param.description === undefined ? {} : { description: param.description }), ...(param.pattern === undefined ? {} : { pattern: param.pattern }), ...(param.maxLength === undefined ? {} : { maxLength: param.maxLength }) }
    }
    const reads = action.steps.flatMap((step) => ('read' in step ? [step.as] : []))
    return {
      id: customActionId(action.name),
      kind: 'custom',
      title: action.title,
      risk: action.risk,
      inputSchema: { type: 'object', properties, required: Object.keys(properties), additionalProperties: false },
      outputSchema: { type: 'object', properties: { done: { type: 'string' }, ...Object.fromEntries(reads.map((name) => [name, {}])) }, required: ['done'] },
    }
  })
}

/** Fills `{param}` parts from the call's input. */
function fill(text: string, input: JsonObject): string {
  return text.replace(/\{([a-z][a-z0-9_-]*)\}/g, (_, name: string) => String(input[name] ?? ''))
}

function queryOf(ref: WidgetRef, schema: AppSchema, input: JsonObject): WidgetQuery {
  if ('widget' in ref) {
    const widget = schema.widgets.find((w) => w.id === ref.widget)
    if (widget === undefined) throw new TesseraError('invalid_contract', `the schema of ${schema.app} names no widget "${ref.widget}"`, { found: ref.widget })
    return { role: widget.role, ...(widget.name === undefined ? {} : { name: fill(widget.name, input) }) }
  }
  return { role: ref.role, ...(ref.name === undefined ? {} : { name: fill(ref.name, input) }) }
}

/** How long an action's steps may take: its waits, and a few seconds for each other step. */
export function customActionTimeout(action: CustomAction): number {
  return action.steps.reduce((ms, step) => ms + ('wait_for' in step ? (step.wait_for.time ?? 10) * 1000 : 3000), 5000)
}

/** Runs a custom action's steps in order; the first that fails ends it with its error and the step's number. */
export async function runCustomAction(host: CustomActionHost, schema: AppSchema, action: CustomAction, input: JsonObject, signal: AbortSignal): Promise<JsonObject> {
  const answer: JsonObject = {}
  for (const [index, step] of action.steps.entries()) {
    if (signal.aborted) throw new TesseraError('timed_out', `${action.name} was stopped before step ${index + 1}`, { found: index + 1 })
    try {
      const read = await runStep(host, schema, step, input, signal)
      if (read !== undefined) answer[read.as] = read.value
    } catch (error) {
      if (error instanceof TesseraError) throw new TesseraError(error.code, `${action.name}, step ${index + 1} (${Object.keys(step)[0]}): ${error.message}`, { ...error.details, step: index + 1 })
      throw error
    }
  }
  return { done: `${action.title}: ${action.steps.length} steps`, ...answer }
}

async function runStep(host: CustomActionHost, schema: AppSchema, step: Step, input: JsonObject, signal: AbortSignal): Promise<{ as: string; value: JsonValue } | undefined> {
  if ('keys' in step) await host.keys(fill(step.keys, input))
  else if ('shortcut' in step) {
    const shortcut = schema.shortcuts.find((s) => s.action === step.shortcut)
    if (shortcut === undefined) throw new TesseraError('invalid_contract', `the schema of ${schema.app} has no shortcut "${step.shortcut}"`, { found: step.shortcut })
    await host.keys(shortcut.keys)
  } else if ('press' in step) await host.press(widgetByQuery(await host.snapshot(), queryOf(step.press, schema, input)).node.id)
  else if ('type' in step) {
    const frame = await host.snapshot()
    const field = step.into === undefined ? typingField(frame) : widgetByQuery(frame, queryOf(step.into, schema, input))
    if (field === undefined) throw new TesseraError('not_found', 'no text field has the keyboard', { expected: 'a focused text field', found: null })
    await host.typeInto(field.node.id, fill(step.type, input), false, step.replace === true)
  } else if ('wait_for' in step) {
    const wanted = step.wait_for
    await host.waitFor({ role: wanted.role, ...(wanted.name === undefined ? {} : { name: fill(wanted.name, input) }), gone: wanted.gone, time: wanted.time }, signal)
  } else {
    const widget = widgetByQuery(await host.snapshot(), queryOf(step.read, schema, input)).node
    return { as: step.as, value: widget.value ?? widget.text ?? widget.name ?? null }
  }
  return undefined
}
