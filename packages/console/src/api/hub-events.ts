import { useEffect, useRef } from 'react'
import type { HubEvent } from './hub-types'

/** Where the hub's WebSockets are, from the page's own origin (the cookie rides along). */
export function socketUrl(path: string): string {
  return `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}${path}`
}

/**
 * Listens to `/api/events` for as long as the component lives, reconnecting with a growing
 * pause when the hub goes away; `onStatus` says whether the console is live.
 */
export function useHubEvents(onEvent: (event: HubEvent) => void, onStatus: (live: boolean) => void): void {
  const handlers = useRef({ onEvent, onStatus })
  handlers.current = { onEvent, onStatus }
  useEffect(() => {
    let socket: WebSocket | null = null
    let retry: ReturnType<typeof setTimeout> | undefined
    let pause = 500
    let stopped = false
    const connect = (): void => {
      socket = new WebSocket(socketUrl('/api/events'))
      socket.onopen = () => {
        pause = 500
        handlers.current.onStatus(true)
      }
      socket.onmessage = (message) => {
        try {
          handlers.current.onEvent(JSON.parse(String(message.data)) as HubEvent)
        } catch (error) {
          console.error('tessera console: an event could not be read', error)
        }
      }
      socket.onclose = () => {
        handlers.current.onStatus(false)
        if (stopped) return
        retry = setTimeout(connect, pause)
        pause = Math.min(pause * 2, 8_000)
      }
    }
    connect()
    return () => {
      stopped = true
      if (retry !== undefined) clearTimeout(retry)
      socket?.close()
    }
  }, [])
}
