export { agentAttributes, agentAttributeString, useAgentAction, type AgentAnnotation, type AgentRisk } from './agent-attributes.js'
