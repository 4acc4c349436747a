import type { Principal } from '@tessera/protocol'
import { useEffect, useState } from 'react'
import { HubProvider } from './HubProvider'
import { Workspace } from './Workspace'
import { signIn } from './sign-in'

/** Signs the person in, then shows the workspace; a problem is said in words, with what to do. */
export function Console() {
  const [session, setSession] = useState<{ principal: Principal } | { problem: string } | null>(null)
  useEffect(() => {
    void signIn().then(setSession)
  }, [])
  if (session === null) return <p className="sign-in">Signing in…</p>
  if ('problem' in session)
    return (
      <main className="sign-in" aria-label="Sign in">
        <h1>Tessera</h1>
        <p role="alert">{session.problem}</p>
      </main>
    )
  return (
    <HubProvider principal={session.principal}>
      <Workspace />
    </HubProvider>
  )
}
