import type { ToolCatalog } from './tool-catalog.js'

/**
 * The tools one MCP session lists and may call. A client that drives only some kinds names
 * them (`/mcp?tools=browser`, `tessera mcp --tools browser`) and reads only their tools beside
 * the generic ones, which reach any tile: an agent that browses need not carry the terminal's
 * and the desktop's tool descriptions in every turn. Without a choice, every tool of the hub.
 */
export class ToolScope {
  static readonly ALL = new ToolScope(null)
  readonly #chosen: ReadonlySet<string> | null

  private constructor(chosen: ReadonlySet<string> | null) {
    this.#chosen = chosen
  }

  /**
   * `browser,files`: kinds or tool names, comma-separated (spaces allowed); empty or absent
   * means all. An entry the hub does not know is an `invalid_request` that lists what it accepts.
   */
  static parse(text: string | null | undefined, catalog: ToolCatalog, setting: string): ToolScope {
    const entries = (text ?? '').split(',').map((entry) => entry.trim()).filter((entry) => entry !== '')
    if (entries.length === 0) return ToolScope.ALL
    catalog.check(entries, setting)
    return new ToolScope(new Set(entries))
  }

  /** Whether the session lists and may call the tool; `kind` is the kind it belongs to, undefined for a generic tool. */
  has(name: string, kind: string | undefined): boolean {
    return this.#chosen === null || kind === undefined || this.#chosen.has(kind) || this.#chosen.has(name)
  }

  /** Whether the session reaches anything of a kind: the kind was chosen, or one of `tools`, its tools. */
  reaches(kind: string, tools: readonly string[]): boolean {
    const chosen = this.#chosen
    return chosen === null || chosen.has(kind) || tools.some((name) => chosen.has(name))
  }

  /** How the choice reads in a message: `tools=browser,files`. */
  toString(): string {
    return this.#chosen === null ? 'all tools' : `tools=${[...this.#chosen].join(',')}`
  }
}
