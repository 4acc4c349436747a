import { Terminal } from '@xterm/xterm'
import '@xterm/xterm/css/xterm.css'
import { useEffect, useRef, useState } from 'react'
import { socketUrl } from '../api/hub-events'
import type { Tile } from '../api/hub-types'
import { notify } from '../panels/Notices'

const RETRY_MS = 2_000

type PtyMessage = { type: 'screen'; cols: number; rows: number; data: string; canType: boolean } | { type: 'data'; data: string } | { type: 'typed'; status: string; message?: string }

/**
 * A terminal tile as xterm.js attached to the PTY's stream: the screen as it is, then every
 * byte the shell writes. An admin's keys go back as the terminal's input actions through the
 * gateway; for anyone else the terminal is read-only.
 */
export function TerminalTile({ tile }: { tile: Tile }) {
  const host = useRef<HTMLDivElement>(null)
  const [mode, setMode] = useState<'connecting' | 'watching' | 'typing' | 'closed'>('connecting')
  // Bumped to attach again after the hub went away (a restart); a closed tile (1001) stays closed.
  const [attempt, setAttempt] = useState(0)
  // A program retitles its terminal often: the stream must not reattach for that.
  const title = useRef(tile.title)
  title.current = tile.title
  useEffect(() => {
    if (host.current === null) return
    const term = new Terminal({ fontSize: 13, convertEol: false, disableStdin: true, scrollback: 2000, screenReaderMode: false })
    term.open(host.current)
    let disposed = false
    let retry: ReturnType<typeof setTimeout> | undefined
    const socket = new WebSocket(socketUrl(`/api/surfaces/${encodeURIComponent(tile.id)}/pty`))
    socket.onmessage = (message) => {
      const event = JSON.parse(String(message.data)) as PtyMessage
      if (event.type === 'screen') {
        term.resize(event.cols, event.rows)
        term.write(event.data)
        term.options.disableStdin = !event.canType
        setMode(event.canType ? 'typing' : 'watching')
      } else if (event.type === 'data') term.write(event.data)
      else notify(`${title.current}: ${event.message ?? event.status}`, 'error')
    }
    socket.onclose = (event) => {
      setMode('closed')
      if (event.code !== 1001 && !disposed) retry = setTimeout(() => setAttempt((n) => n + 1), RETRY_MS)
    }
    const typing = term.onData((data) => {
      if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ data }))
    })
    return () => {
      disposed = true
      if (retry !== undefined) clearTimeout(retry)
      typing.dispose()
      socket.close()
      term.dispose()
    }
  }, [tile.id, attempt])
  return (
    <div className="terminal-tile nodrag nowheel nopan" data-mode={mode}>
      <div ref={host} className="xterm-host" aria-label={`Terminal ${tile.title} (${mode === 'typing' ? 'you can type' : 'read-only'})`} />
    </div>
  )
}
