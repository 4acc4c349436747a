import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client'
import type { HubContext } from '../startup/hub-context.js'

/** Latency buckets in seconds: a terminal call takes milliseconds, a person's approval minutes. */
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300]

export interface HubMetrics {
  readonly registry: Registry
  /** Counts one HTTP request by its route pattern (never its raw path: ids would explode the series). */
  observeHttp(method: string, route: string, status: number, seconds: number): void
  stop(): void
}

/**
 * The hub's Prometheus metrics, on a registry of its own: HTTP requests and latency, actions
 * by surface and status with their latency, and, read at scrape time, the dispatch queue
 * depth per surface, MCP sessions, pending approvals and tiles by state; plus Node's process
 * metrics.
 */
export function createHubMetrics(ctx: HubContext, mcpSessions: () => number): HubMetrics {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry, prefix: 'tessera_' })
  const httpRequests = new Counter({ name: 'tessera_http_requests_total', help: 'HTTP requests by method, route and status', labelNames: ['method', 'route', 'status'], registers: [registry] })
  const httpSeconds = new Histogram({ name: 'tessera_http_request_duration_seconds', help: 'HTTP request latency', labelNames: ['method', 'route'], buckets: BUCKETS, registers: [registry] })
  const actions = new Counter({ name: 'tessera_actions_total', help: 'Actions that ended, by surface, action and status', labelNames: ['surface', 'action', 'status'], registers: [registry] })
  const actionSeconds = new Histogram({ name: 'tessera_action_duration_seconds', help: 'Time the gateway spent on an action, by surface', labelNames: ['surface'], buckets: BUCKETS, registers: [registry] })
  new Gauge({
    name: 'tessera_queue_depth',
    help: 'Actions waiting or running in the dispatch queue, per surface',
    labelNames: ['surface'],
    registers: [registry],
    collect() {
      this.reset()
      for (const tile of ctx.surfaces.list()) this.set({ surface: tile.id }, ctx.gateway.queueDepths().get(tile.id) ?? 0)
    },
  })
  new Gauge({
    name: 'tessera_mcp_sessions',
    help: 'Open MCP sessions',
    registers: [registry],
    collect() {
      this.set(mcpSessions())
    },
  })
  new Gauge({
    name: 'tessera_approvals_pending',
    help: 'Approvals waiting for a person',
    registers: [registry],
    async collect() {
      this.set((await ctx.gateway.approvals.list({ status: 'pending' })).length)
    },
  })
  new Gauge({
    name: 'tessera_tiles',
    help: 'Tiles on the map, by state',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      this.reset()
      const counts = { running: 0, idle: 0, error: 0 }
      for (const tile of ctx.surfaces.list()) counts[tile.state] += 1
      for (const [state, count] of Object.entries(counts)) this.set({ state }, count)
    },
  })
  const stop = ctx.gateway.onActionEnd((result, ms) => {
    // A name no surface knows came from the caller: one label for all of them, so a flood of
    // made-up names cannot grow the series without bound.
    const known = result.status !== 'not_found' && ctx.surfaces.list().some((tile) => tile.id === result.surface)
    actions.inc({ surface: known ? result.surface : 'unknown', action: known ? result.action : 'unknown', status: result.status })
    actionSeconds.observe({ surface: known ? result.surface : 'unknown' }, ms / 1000)
  })
  return {
    registry,
    observeHttp(method, route, status, seconds) {
      httpRequests.inc({ method, route, status: String(status) })
      httpSeconds.observe({ method, route }, seconds)
    },
    stop,
  }
}
