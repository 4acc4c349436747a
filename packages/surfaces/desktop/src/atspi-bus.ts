import { TesseraError } from '@tessera/protocol'
import dbus from 'dbus-next'

/** An accessible object: the app's bus name and the object's path there. */
export interface AccessibleRef {
  bus: string
  path: string
}

export const REGISTRY: AccessibleRef = { bus: 'org.a11y.atspi.Registry', path: '/org/a11y/atspi/accessible/root' }
export const NULL_PATH = '/org/a11y/atspi/null'

/** An app that hangs does not hang a snapshot: every call has this long once sent. */
const CALL_TIMEOUT_MS = 1_500
/**
 * Calls in flight per app. An app answers AT-SPI on its main loop: ten thousand calls at once
 * (LibreOffice's tree) queue there past any timeout and leave it deaf for seconds after; a
 * few dozen keep it busy without a backlog.
 */
const IN_FLIGHT_PER_APP = 48

/**
 * The accessibility bus of one desktop session, spoken to with plain D-Bus messages (no
 * introspection round trips): a call is one message and its reply.
 */
export class AtspiBus {
  readonly #bus: dbus.MessageBus
  readonly #lanes = new Map<string, { busy: number; waiting: Array<() => void> }>()

  private constructor(bus: dbus.MessageBus) {
    this.#bus = bus
  }

  static connect(address: string): AtspiBus {
    const bus = dbus.sessionBus({ busAddress: address })
    // A broken connection shows as failed calls; an unhandled 'error' would end the hub.
    bus.on('error', () => undefined)
    return new AtspiBus(bus)
  }

  /** One method call; the reply's values, or a typed error when the app answers with one or not in time. */
  async call(target: AccessibleRef, iface: string, member: string, signature?: string, body?: unknown[]): Promise<unknown[]> {
    const lane = this.#lanes.get(target.bus) ?? { busy: 0, waiting: [] }
    this.#lanes.set(target.bus, lane)
    if (lane.busy >= IN_FLIGHT_PER_APP) await new Promise<void>((go) => lane.waiting.push(go))
    lane.busy++
    try {
      return await this.#send(target, iface, member, signature, body)
    } finally {
      lane.busy--
      lane.waiting.shift()?.()
      if (lane.busy === 0 && lane.waiting.length === 0) this.#lanes.delete(target.bus)
    }
  }

  async #send(target: AccessibleRef, iface: string, member: string, signature?: string, body?: unknown[]): Promise<unknown[]> {
    const message = new dbus.Message({ destination: target.bus, path: target.path, interface: iface, member, ...(signature === undefined ? {} : { signature, body: body ?? [] }) })
    let timer: NodeJS.Timeout | undefined
    try {
      const reply = await Promise.race([
        this.#bus.call(message),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new TesseraError('timed_out', `${target.bus} did not answer ${iface.split('.').pop()}.${member} in ${CALL_TIMEOUT_MS} ms`, { found: target.path })), CALL_TIMEOUT_MS)
        }),
      ])
      return reply?.body ?? []
    } catch (error) {
      if (error instanceof TesseraError) throw error
      throw new TesseraError('conflict', `${iface.split('.').pop()}.${member} on ${target.path} failed: ${(error as Error).message}`, { found: target.path })
    } finally {
      clearTimeout(timer)
    }
  }

  /** A property through org.freedesktop.DBus.Properties.Get, unwrapped. */
  async property(target: AccessibleRef, iface: string, name: string): Promise<unknown> {
    const [variant] = await this.call(target, 'org.freedesktop.DBus.Properties', 'Get', 'ss', [iface, name])
    return variant instanceof dbus.Variant ? variant.value : variant
  }

  /** Hears the apps' events of these kinds (`object:`, `window:`): apps only send events someone registered for. */
  async listen(kinds: readonly string[], onEvent: (event: AtspiEvent) => void): Promise<() => void> {
    for (const kind of kinds) {
      const iface = `org.a11y.atspi.Event.${kind.replace(/:$/, '').replace(/^./, (c) => c.toUpperCase())}`
      await this.call({ bus: 'org.freedesktop.DBus', path: '/org/freedesktop/DBus' }, 'org.freedesktop.DBus', 'AddMatch', 's', [`type='signal',interface='${iface}'`])
      await this.call({ bus: REGISTRY.bus, path: '/org/a11y/atspi/registry' }, 'org.a11y.atspi.Registry', 'RegisterEvent', 's', [kind]).catch(() => undefined)
    }
    const handler = (message: dbus.Message): void => {
      if (message.type !== dbus.MessageType.SIGNAL || !message.interface?.startsWith('org.a11y.atspi.Event.')) return
      onEvent({ kind: `${message.interface.slice('org.a11y.atspi.Event.'.length).toLowerCase()}:${message.member}`, source: { bus: message.sender, path: message.path }, detail: String(message.body?.[0] ?? '') })
    }
    this.#bus.on('message', handler)
    return () => this.#bus.removeListener('message', handler)
  }

  disconnect(): void {
    this.#bus.disconnect()
  }
}

export interface AtspiEvent {
  /** `object:StateChanged`, `object:ChildrenChanged`, `object:PropertyChange`, `object:TextChanged`… */
  kind: string
  source: AccessibleRef
  detail: string
}

/** A (so) pair from AT-SPI as a ref. */
export function refOf(pair: unknown): AccessibleRef | undefined {
  if (!Array.isArray(pair) || typeof pair[0] !== 'string' || typeof pair[1] !== 'string') return undefined
  return pair[1] === NULL_PATH ? undefined : { bus: pair[0], path: pair[1] }
}
