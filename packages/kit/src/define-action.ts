import {
  type ActionCall,
  ActionContract,
  type JsonObject,
  type JsonValue,
  type PerformContext,
  type Risk,
  type RiskAssessment,
  TesseraError,
} from '@tessera/protocol'
import { z } from 'zod'
import { plainJson } from './plain-json.js'

/** What `run` gets besides its parsed input: the surface it runs on, the validated call and the gateway's context. */
export interface RunContext<S> extends PerformContext {
  surface: S
  call: ActionCall
}

export interface ActionDefinition<S, I extends z.ZodType, O extends z.ZodType> {
  id: string
  title: string
  /**
   * The sentence a person approves, `{expression}` parts over the frame's state and `input`
   * (summary-template.ts). A person's approval then holds while that sentence and the
   * preconditions' values read the same, not only while the whole state does.
   */
  summary?: string
  /** What sort of action it is (list, write, execute…); defaults to the id. */
  kind?: string
  risk: Risk
  /** Defaults to true for external and destructive actions. */
  requiresConfirmation?: boolean
  input: I
  output: O
  /** false: may run while another action holds the surface (reading output, interrupting). */
  exclusive?: boolean
  /** true: reads what the surface keeps and changes nothing of it; the gateway takes no new snapshot after it. */
  observes?: boolean
  /** How long this input may legitimately take, in ms, when it says so (a command's own timeout). */
  timeout?: (input: z.output<I>) => number | null
  /** A risk that depends on the input or the element; the gateway takes the highest. */
  assess?: (input: z.output<I>, call: ActionCall, surface: S) => RiskAssessment | null | Promise<RiskAssessment | null>
  preconditions?: string[]
  postconditions?: string[]
  run: (input: z.output<I>, ctx: RunContext<S>) => Promise<z.input<O>> | z.input<O>
}

/** One action, defined once: its contract (with both JSON Schemas), validation and dispatch derive from it. */
export interface DefinedAction<S> {
  readonly contract: ActionContract
  /** The highest risk a call can reach: the contract's, or destructive when `assess` may raise it. */
  readonly maxRisk: Risk
  /** The input as `run` receives it, or a typed `invalid_input` error saying what was expected and found. */
  parseInput(input: unknown): unknown
  perform(surface: S, call: ActionCall, ctx: PerformContext): Promise<JsonValue | undefined>
  assess(surface: S, call: ActionCall): Promise<RiskAssessment | null>
  timeoutFor(call: ActionCall): number | null
}

/**
 * Drops what zod writes but says nothing to a reader: the ±2^53 bounds of every `.int()` the
 * type beside a `const`, and `additionalProperties: false` on outputs. Tool schemas are read by models on every session; each word costs.
 */
function withoutNoise(value: unknown, io: 'input' | 'output'): unknown {
  if (Array.isArray(value)) return value.map((item) => withoutNoise(item, io))
  if (value === null || typeof value !== 'object') return value
  const out: Record<string, unknown> = {}
  for (const [key, inner] of Object.entries(value)) {
    if ((key === 'minimum' && inner === Number.MIN_SAFE_INTEGER) || (key === 'maximum' && inner === Number.MAX_SAFE_INTEGER)) continue
    if (key === 'type' && 'const' in value) continue
    // An output is what the tool sends; saying it sends nothing more is for inputs.
    if (key === 'additionalProperties' && inner === false && io === 'output') continue
    out[key] = withoutNoise(inner, io)
  }
  return out
}

/** The JSON Schema an MCP client and the gateway read, derived from the zod schema. */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonObject {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>
  return withoutNoise(json, io) as JsonObject
}

/** Each problem as "where: what was expected, what was found", as every error of the project says it. */
function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const where = issue.path.length > 0 ? issue.path.join('.') : 'input'
      if (issue.code === 'unrecognized_keys') return `${where}: expected only known fields, found ${issue.keys.map((key) => `"${key}"`).join(', ')}`
      return `${where}: ${issue.message}`
    })
    .join('; ')
}

const CONFIRM_BY_DEFAULT = new Set<Risk>(['external', 'destructive'])

/**
 * Defines an action of surface type `S`. Call as `defineAction<MySurface>()({...})` so the
 * input and output types are inferred from the schemas while the surface type is given.
 */
export function defineAction<S>() {
  return <I extends z.ZodType, O extends z.ZodType>(definition: ActionDefinition<S, I, O>): DefinedAction<S> => {
    const contract = ActionContract.parse({
      id: definition.id,
      kind: definition.kind ?? definition.id,
      title: definition.title,
      ...(definition.summary === undefined ? {} : { summary: definition.summary }),
      risk: definition.risk,
      requiresConfirmation: definition.requiresConfirmation ?? CONFIRM_BY_DEFAULT.has(definition.risk),
      inputSchema: jsonSchemaOf(definition.input, 'input'),
      outputSchema: jsonSchemaOf(definition.output, 'output'),
      preconditions: definition.preconditions ?? [],
      postconditions: definition.postconditions ?? [],
      ...(definition.exclusive === undefined ? {} : { exclusive: definition.exclusive }),
      ...(definition.observes === undefined ? {} : { observes: definition.observes }),
    })
    const parseInput = (input: unknown): z.output<I> => {
      const parsed = definition.input.safeParse(input ?? {})
      if (!parsed.success) {
        throw new TesseraError('invalid_input', `invalid input for "${contract.id}": ${describeIssues(parsed.error)}`, { expected: contract.inputSchema ?? null, issues: parsed.error.issues as unknown as JsonValue })
      }
      return parsed.data
    }
    return {
      contract,
      maxRisk: definition.assess === undefined ? definition.risk : 'destructive',
      parseInput,
      async perform(surface, call, ctx) {
        ctx.signal.throwIfAborted()
        const output = await definition.run(parseInput(call.input), { ...ctx, surface, call })
        const checked = definition.output.safeParse(output)
        if (!checked.success) {
          throw new TesseraError('internal', `action "${contract.id}" answered outside its output schema: ${describeIssues(checked.error)}`, { issues: checked.error.issues as unknown as JsonValue })
        }
        return checked.data === undefined ? undefined : plainJson(checked.data)
      },
      async assess(surface, call) {
        if (definition.assess === undefined) return null
        const parsed = definition.input.safeParse(call.input ?? {})
        // Input the schema refuses never runs; the gateway reports it, so there is nothing to judge.
        return parsed.success ? definition.assess(parsed.data, call, surface) : null
      },
      timeoutFor(call) {
        if (definition.timeout === undefined) return null
        const parsed = definition.input.safeParse(call.input ?? {})
        return parsed.success ? definition.timeout(parsed.data) : null
      },
    }
  }
}
