export { defineAction, jsonSchemaOf, type ActionDefinition, type DefinedAction, type RunContext } from './define-action.js'
export { ActionSet, actionSet } from './action-set.js'
export { defineKind, type KindEnvironment, type SurfaceKindModule } from './kind-module.js'
export { actionFacade, type ActionFacadeOptions, type FacadeTool, type TileSummary, type ToolAnswer, type ToolContext } from './facade-tool.js'
