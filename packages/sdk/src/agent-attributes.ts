/** How consequential an element's action is; a page can raise what the browser infers, never lower it. */
export type AgentRisk = 'read' | 'write' | 'external' | 'destructive'

/** What a web app says of one element to an agent's browser tile. */
export interface AgentAnnotation {
  /** The app's own name for what the element does (`approve-payout`): shown to the agent beside the element. */
  action?: string
  /** One sentence on what it does, for the agent and for the person who may approve it. */
  title?: string
  /** At least this risk: `destructive` or `external` make a person approve every use. */
  risk?: AgentRisk
  /** The element holds a secret: its value never leaves the page's tile. */
  sensitive?: boolean
}

const ACTION = /^[a-z0-9][a-z0-9._-]{0,63}$/
const RISKS: readonly AgentRisk[] = ['read', 'write', 'external', 'destructive']

/** The annotation as `data-agent-*` attributes, for any HTML (a template, a server page, a framework's props). */
export function agentAttributes(annotation: AgentAnnotation): Record<string, string> {
  const attributes: Record<string, string> = {}
  if (annotation.action !== undefined) {
    if (!ACTION.test(annotation.action)) throw new TypeError(`expected an action id of lowercase letters, digits, ".", "_" or "-" (1–64), found ${JSON.stringify(annotation.action)}`)
    attributes['data-agent-action'] = annotation.action
  }
  if (annotation.title !== undefined) attributes['data-agent-title'] = annotation.title.slice(0, 200)
  if (annotation.risk !== undefined) {
    if (!RISKS.includes(annotation.risk)) throw new TypeError(`expected a risk of ${RISKS.join(', ')}, found ${JSON.stringify(annotation.risk)}`)
    attributes['data-agent-risk'] = annotation.risk
  }
  if (annotation.sensitive === true) attributes['data-agent-sensitive'] = ''
  return attributes
}

/** The same attributes as an HTML attribute string, escaped, for a template literal. */
export function agentAttributeString(annotation: AgentAnnotation): string {
  const escape = (value: string): string => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;')
  return Object.entries(agentAttributes(annotation))
    .map(([name, value]) => (value === '' ? name : `${name}="${escape(value)}"`))
    .join(' ')
}

/**
 * For a React component: props to spread on the element (`<button {...useAgentAction({action:
 * 'approve-payout', risk: 'destructive'})}>`). It keeps no state and calls no React API, so
 * it needs no React import and follows the rules of hooks wherever it is called.
 */
export function useAgentAction(annotation: AgentAnnotation): Record<string, string> {
  return agentAttributes(annotation)
}
