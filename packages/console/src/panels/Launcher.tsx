import { useEffect, useState } from 'react'
import { hubApi } from '../api/hub-api'
import type { OpenSchema } from '../api/hub-types'
import { useHub } from '../HubProvider'
import { actAsPerson } from '../map/person-actions'

type Choice = { how: 'preset'; name: string } | { how: 'kind'; name: string; schema: OpenSchema | null }

/**
 * Opens a tile through the map's `open` action, as the person: one of the hub's configured
 * presets, or a new tile of any kind with the fields that kind takes (a page's URL, an app).
 */
export function Launcher() {
  const { can } = useHub()
  const [kinds, setKinds] = useState<Array<{ kind: string; open: OpenSchema | null; presetOnly: boolean }>>([])
  const [presets, setPresets] = useState<string[]>([])
  const [choice, setChoice] = useState('')
  const [fields, setFields] = useState<Record<string, string>>({})
  useEffect(() => {
    // A file root or an app is opened from what the configuration names (a preset), never made up here.
    void hubApi.kinds().then(({ kinds }) => setKinds(kinds.filter((kind) => !kind.presetOnly)), () => undefined)
    void hubApi.frame('map').then(({ frame }) => setPresets((frame.state as { presets?: string[] }).presets ?? []), () => undefined)
  }, [])
  if (!can.act) return null
  const chosen: Choice | null = choice.startsWith('preset:')
    ? { how: 'preset', name: choice.slice('preset:'.length) }
    : choice.startsWith('kind:')
      ? { how: 'kind', name: choice.slice('kind:'.length), schema: kinds.find((k) => k.kind === choice.slice('kind:'.length))?.open ?? null }
      : null
  const properties = chosen?.how === 'kind' ? Object.entries(chosen.schema?.properties ?? {}).filter(([, p]) => p.type === 'string') : []
  const open = (): void => {
    if (chosen === null) return
    const config = Object.fromEntries(Object.entries(fields).filter(([key, value]) => value.trim() !== '' && properties.some(([name]) => name === key)))
    void actAsPerson({ surface: 'map', action: 'open', input: chosen.how === 'preset' ? { preset: chosen.name } : { kind: chosen.name, ...(Object.keys(config).length > 0 ? { config } : {}) } })
  }
  return (
    <form
      className="launcher"
      aria-label="Launcher"
      onSubmit={(event) => {
        event.preventDefault()
        open()
      }}
    >
      <label htmlFor="launch-choice">Open</label>
      <select
        id="launch-choice"
        value={choice}
        onChange={(event) => {
          setChoice(event.target.value)
          setFields({})
        }}
      >
        <option value="">choose a tile…</option>
        {presets.length > 0 && (
          <optgroup label="Configured">
            {presets.map((preset) => (
              <option key={preset} value={`preset:${preset}`}>
                {preset}
              </option>
            ))}
          </optgroup>
        )}
        <optgroup label="New">
          {kinds.map(({ kind }) => (
            <option key={kind} value={`kind:${kind}`}>
              {kind}
            </option>
          ))}
        </optgroup>
      </select>
      {properties.map(([name, property]) => (
        <label key={name}>
          <span className="visually-hidden">{name}</span>
          {property.enum !== undefined ? (
            <select aria-label={name} value={fields[name] ?? ''} onChange={(event) => setFields({ ...fields, [name]: event.target.value })}>
              <option value="">{name}…</option>
              {property.enum.map((value) => (
                <option key={value}>{value}</option>
              ))}
            </select>
          ) : (
            <input aria-label={name} placeholder={name} title={property.description} value={fields[name] ?? ''} onChange={(event) => setFields({ ...fields, [name]: event.target.value })} size={name === 'url' ? 28 : 12} />
          )}
        </label>
      ))}
      <button type="submit" disabled={chosen === null}>
        Open
      </button>
    </form>
  )
}
