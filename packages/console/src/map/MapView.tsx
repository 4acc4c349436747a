import { Background, Controls, MiniMap, type Node, type NodeChange, ReactFlow, applyNodeChanges, useReactFlow } from '@xyflow/react'
import { type KeyboardEvent, useCallback, useEffect, useRef, useState } from 'react'
import type { Tile } from '../api/hub-types'
import { useHub, useHubState } from '../HubProvider'
import { actAsPerson } from './person-actions'
import { TileNode, type TileNodeData } from './TileNode'

const NODE_TYPES = { tile: TileNode }
const PAN_STEP = 120
const MOVE_REST_MS = 250

function toNode(tile: Tile, draggable: boolean): Node<TileNodeData, 'tile'> {
  return { id: tile.id, type: 'tile', position: { x: tile.x, y: tile.y }, width: tile.width, height: tile.height, data: { tile }, draggable, dragHandle: '.tile-bar', selected: tile.focused }
}

function sameLooks(a: Tile, b: Tile): boolean {
  return a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height && a.title === b.title && a.state === b.state && a.focused === b.focused && a.error === b.error
}

/**
 * The map: an infinite plane (pan, zoom, minimap) with every tile at its map coordinates.
 * Moving, resizing, focusing and closing a tile are actions of the `map` surface, taken as the
 * person; the view follows `navigate_map` when anyone moves the shared view.
 */
export function MapView() {
  const { can } = useHub()
  const tiles = useHubState((state) => state.tiles)
  const sharedView = useHubState((state) => state.viewport)
  const flow = useReactFlow()
  const [nodes, setNodes] = useState<Node<TileNodeData, 'tile'>[]>([])
  const fitted = useRef(false)

  // The hub's tiles are the truth; a drag in progress keeps its own position until it ends,
  // and a tile whose place and looks did not change keeps its node (a new frame id alone, which
  // comes with every frame, re-renders nothing on the map).
  useEffect(() => {
    setNodes((current) => {
      const previous = new Map(current.map((node) => [node.id, node]))
      return tiles.map((tile) => {
        const node = previous.get(tile.id)
        if (node !== undefined && (node.dragging === true || (sameLooks(node.data.tile, tile) && node.draggable === can.act))) return node
        return toNode(tile, can.act)
      })
    })
  }, [tiles, can.act])

  useEffect(() => {
    if (fitted.current || tiles.length === 0 || sharedView !== null) return
    fitted.current = true
    requestAnimationFrame(() => void flow.fitView({ padding: 0.1, duration: 0 }))
  }, [tiles.length, sharedView, flow])

  useEffect(() => {
    if (sharedView === null) return
    fitted.current = true
    const { x, y, zoom } = sharedView.to
    void flow.setCenter(x, y, { zoom, duration: 600 })
  }, [sharedView, flow])

  // A tile dropped after a drag, or moved with the arrow keys while selected, is moved on the
  // hub once it rests (one action for a run of key presses).
  const pendingMoves = useRef(new Map<string, ReturnType<typeof setTimeout>>())
  const onNodesChange = useCallback((changes: NodeChange<Node<TileNodeData, 'tile'>>[]) => {
    // Only what the plane itself does (drag, keys, measure, select); removals go through the map's close.
    setNodes((current) => applyNodeChanges(changes.filter((change) => change.type !== 'remove'), current))
    for (const change of changes) {
      if (change.type !== 'position' || change.dragging !== false || change.position === undefined) continue
      const { id, position } = change
      clearTimeout(pendingMoves.current.get(id))
      pendingMoves.current.set(
        id,
        setTimeout(() => {
          pendingMoves.current.delete(id)
          void actAsPerson({ surface: 'map', action: 'move', input: { tile: id, x: Math.round(position.x), y: Math.round(position.y) } }, true)
        }, MOVE_REST_MS),
      )
    }
  }, [])


  // Arrows pan, + and - zoom, 0 fits every tile: the map works without a pointer.
  const onKeyDown = useCallback(
    (event: KeyboardEvent<HTMLElement>) => {
      if (event.target !== event.currentTarget) return
      const { x, y, zoom } = flow.getViewport()
      const moves: Record<string, [number, number]> = { ArrowLeft: [PAN_STEP, 0], ArrowRight: [-PAN_STEP, 0], ArrowUp: [0, PAN_STEP], ArrowDown: [0, -PAN_STEP] }
      const move = moves[event.key]
      if (move !== undefined) void flow.setViewport({ x: x + move[0], y: y + move[1], zoom }, { duration: 120 })
      else if (event.key === '+' || event.key === '=') void flow.zoomIn({ duration: 120 })
      else if (event.key === '-') void flow.zoomOut({ duration: 120 })
      else if (event.key === '0') void flow.fitView({ padding: 0.1, duration: 200 })
      else return
      event.preventDefault()
    },
    [flow],
  )

  return (
    <main className="map" aria-label="Map" tabIndex={0} onKeyDown={onKeyDown} aria-describedby="map-keys">
      <p id="map-keys" className="visually-hidden">
        Arrow keys pan the map, plus and minus zoom, 0 shows every tile.
      </p>
      <ReactFlow
        nodes={nodes}
        edges={[]}
        nodeTypes={NODE_TYPES}
        onNodesChange={onNodesChange}
        minZoom={0.05}
        maxZoom={4}
        nodesConnectable={false}
        elementsSelectable
        deleteKeyCode={null}
        proOptions={{ hideAttribution: true }}
        onlyRenderVisibleElements
        ariaLabelConfig={{ 'node.a11yDescription.default': 'A tile. Drag its title bar to move it.' }}
      >
        <Background gap={64} />
        <MiniMap pannable zoomable ariaLabel="Minimap" nodeColor={(node) => ((node.data as TileNodeData).tile.state === 'error' ? '#c0392b' : '#5b6b8c')} />
        <Controls aria-label="Zoom controls" />
      </ReactFlow>
    </main>
  )
}
