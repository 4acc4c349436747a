import type { Principal } from '@tessera/protocol'
import { HubError, hubApi } from './api/hub-api'

let signingIn: Promise<{ principal: Principal } | { problem: string }> | null = null

/**
 * Who is using the console. A one-time login link carries its code in the URL fragment
 * (never sent to a server or a log): it is redeemed once for an HttpOnly session cookie and
 * taken out of the address bar. Without it, an existing session cookie is used.
 */
export function signIn(): Promise<{ principal: Principal } | { problem: string }> {
  // Once per page: a login code can be redeemed only once, and React may run effects twice.
  signingIn ??= redeemOrResume()
  return signingIn
}

async function redeemOrResume(): Promise<{ principal: Principal } | { problem: string }> {
  const code = new URLSearchParams(location.hash.slice(1)).get('code')
  if (code !== null) {
    history.replaceState(null, '', location.pathname)
    try {
      return await hubApi.login(code)
    } catch (error) {
      return { problem: error instanceof Error ? error.message : String(error) }
    }
  }
  try {
    return await hubApi.me()
  } catch (error) {
    if (error instanceof HubError && error.status === 401) return { problem: 'Open the one-time login link the hub printed, or run `tessera login` for a new one.' }
    return { problem: error instanceof Error ? error.message : String(error) }
  }
}
