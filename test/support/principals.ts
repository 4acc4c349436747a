import type { Principal } from '@tessera/protocol'

export const agent: Principal = { id: 'agent-1', roles: ['agent'] }
export const otherAgent: Principal = { id: 'agent-2', roles: ['agent'] }
export const approver: Principal = { id: 'alice', roles: ['approver'] }
export const admin: Principal = { id: 'root', roles: ['admin'] }
/** Holds the approver role too: the self-approval case. */
export const agentWithApproverRole: Principal = { id: 'agent-1', roles: ['agent', 'approver'] }
