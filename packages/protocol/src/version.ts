/** The protocol this build speaks. */
export const PROTOCOL_VERSION = 'tessera.agent-native/1' as const
/** The seed protocol's stamp; frames carrying it are read and up-converted. */
export const LEGACY_PROTOCOL_VERSION = 'geometra.agent-native/0' as const

export const SUPPORTED_VERSIONS = [PROTOCOL_VERSION, LEGACY_PROTOCOL_VERSION] as const
export type ProtocolVersion = (typeof SUPPORTED_VERSIONS)[number]
