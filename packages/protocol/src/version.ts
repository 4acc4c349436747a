/** The protocol this build speaks, stamped in every frame's `protocol` field. */
export const PROTOCOL_VERSION = 'tessera.agent-native/2' as const
/**
 * The previous stamp: frames carried it in `version`, embedded a whole contract in every
 * action target and hashed their geometry. Such frames are read and up-converted.
 */
export const PREVIOUS_PROTOCOL_VERSION = 'tessera.agent-native/1' as const
/** The original protocol's stamp (also in `version`); frames carrying it are read and up-converted. */
export const LEGACY_PROTOCOL_VERSION = 'geometra.agent-native/0' as const

export const SUPPORTED_VERSIONS = [PROTOCOL_VERSION, PREVIOUS_PROTOCOL_VERSION, LEGACY_PROTOCOL_VERSION] as const
export type ProtocolVersion = (typeof SUPPORTED_VERSIONS)[number]
