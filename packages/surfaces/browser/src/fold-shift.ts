/**
 * Fold lines that moved along without changing. What comes into a page above its folds (a
 * setting ticked, a section opened) moves the offset each later fold line names by as much,
 * and a delta that said every one of them anew spent most of its tokens on them: ticking a
 * checkbox on rustdoc's Vec page changed two lines and re-sent 14 fold lines, 511 of 652
 * tokens. Such lines are said together, by how far their offsets moved.
 */

/** The offsets a fold line names and where they are: `offset 8`, `offset 4, 253, 502`, `offset 33 to 485`, `offset 531 to 7752 in steps of 249`. */
const OFFSETS = /offset (\d+(?:(?:, | to )\d+)*)/

/** What expands a fold line: its parent's ref. */
const EXPANDS = /expand "(@[^"]*)"/

/** What a fold of a part left unread guesses it holds (`about 198 lines, 153 actions`): a guess from the DOM, which moves with what is drawn elsewhere. */
const GUESSED = /^… about \d+ lines?(, \d+ actions?)?/

/**
 * A fold line as it reads whatever its offsets, and whatever a part left unread guesses it
 * holds: two lines of the same key fold the same siblings (ticking rustdoc's line numbers
 * moved the guesses of 13 folds far below by a few lines each, and re-sent them all).
 */
function foldKey(line: string): string | undefined {
  const trimmed = line.trim()
  if (!trimmed.startsWith('… ') || !EXPANDS.test(trimmed)) return undefined
  const offsets = OFFSETS.exec(trimmed)
  return (offsets === null ? trimmed : trimmed.replace(` ${offsets[0]}`, '')).replace(GUESSED, '… about')
}

/** The offsets a fold line names; none said is the first, 0. */
function offsetsOf(line: string): number[] {
  const said = OFFSETS.exec(line)?.[1]
  return said === undefined ? [0] : said.split(/, | to /).map(Number)
}

/** A run of shifted fold lines of one parent, by one step. */
interface Shift {
  expands: string
  by: number
  count: number
  /** The first of them, as the new outline reads it, so the agent knows where the run starts. */
  first: string
}

export class ShiftedFolds {
  readonly #before = new Map<string, string>()
  readonly #shifts: Shift[] = []
  /** A fold line said on its own came since the last run: the next shifted one starts a run of its own. */
  #broken = false

  /** `removed`: the lines of the last outline that are not in the new one. */
  constructor(removed: readonly string[]) {
    for (const line of removed) {
      const key = foldKey(line)
      if (key !== undefined && !this.#before.has(key)) this.#before.set(key, line)
    }
  }

  /**
   * Whether an added line is a fold line that went only by its offsets, all by one step: then it
   * is counted in its run, not said.
   */
  take(line: string): boolean {
    const key = foldKey(line)
    if (key === undefined) {
      if (line.trim().startsWith('… ')) this.#broken = true
      return false
    }
    const old = this.#before.get(key)
    const was = old === undefined ? [] : offsetsOf(old)
    const now = offsetsOf(line)
    const by = (now[0] ?? 0) - (was[0] ?? 0)
    if (old === undefined || was.length !== now.length || now.some((offset, i) => offset - (was[i] ?? 0) !== by)) {
      this.#broken = true
      return false
    }
    this.#before.delete(key)
    // Only a guess of what it holds moved: nothing to say.
    if (by === 0) return true
    const expands = EXPANDS.exec(line)?.[1] ?? ''
    const last = this.#shifts.at(-1)
    if (last !== undefined && !this.#broken && last.expands === expands && last.by === by) last.count += 1
    else this.#shifts.push({ expands, by, count: 1, first: line.trim() })
    this.#broken = false
    return true
  }

  /** A line for each run: its first fold line as it reads now, by how much its offsets moved, and how many more moved so. */
  said(): string[] {
    return this.#shifts.map((shift) => {
      const by = `offset ${shift.by > 0 ? '+' : ''}${shift.by}`
      return `~ ${shift.first} (${shift.count === 1 ? by : `${by}, as for the next ${shift.count - 1} fold line${shift.count === 2 ? '' : 's'} of ${shift.expands}, whose words are as before`})`
    })
  }
}
