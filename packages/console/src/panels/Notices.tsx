import { useEffect, useState } from 'react'

/** A short message to the person (an action's outcome, a refusal), read out by screen readers. */
export interface Notice {
  id: number
  text: string
  tone: 'info' | 'error'
}

let next = 0
const listeners = new Set<(notice: Notice) => void>()

export function notify(text: string, tone: Notice['tone'] = 'info'): void {
  const notice = { id: ++next, text, tone }
  for (const listener of listeners) listener(notice)
}

export function Notices() {
  const [notices, setNotices] = useState<Notice[]>([])
  useEffect(() => {
    const listener = (notice: Notice): void => {
      setNotices((current) => [...current.slice(-3), notice])
      setTimeout(() => setNotices((current) => current.filter((n) => n.id !== notice.id)), 6_000)
    }
    listeners.add(listener)
    return () => void listeners.delete(listener)
  }, [])
  return (
    <div className="notices" role="status" aria-live="polite" aria-label="Notices">
      {notices.map((notice) => (
        <p key={notice.id} className={`notice ${notice.tone}`}>
          {notice.text}
        </p>
      ))}
    </div>
  )
}
