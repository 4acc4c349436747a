export type TileState = 'running' | 'idle' | 'error'

/** A surface as the map shows it: where it sits, how big, whether it is alive. */
export interface Tile {
  id: string
  /** The kind module the tile was opened with (`terminal`, `files`…), else the surface's own kind. */
  kind: string
  title: string
  x: number
  y: number
  width: number
  height: number
  state: TileState
  focused: boolean
  /** The id of the latest frame seen, when the surface has produced one. */
  frameId: string | null
  error?: string
}
