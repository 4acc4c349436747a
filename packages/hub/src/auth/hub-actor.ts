/** Who the trace says did what the hub does on its own (opening the configured tiles); no token may take the name. */
export const HUB_ACTOR = 'hub'
