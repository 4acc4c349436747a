import { useEffect, useState } from 'react'
import { hubApi } from '../api/hub-api'
import { useHub } from '../HubProvider'
import { actAsPerson } from '../map/person-actions'

/**
 * Opens a tile through the map's `open` action, as the person: any kind the hub offers, or
 * one of its configured presets. The choices come from the map's own frame.
 */
export function Launcher() {
  const { can, state } = useHub()
  const [choices, setChoices] = useState<{ kinds: string[]; presets: string[] }>({ kinds: [], presets: [] })
  const [choice, setChoice] = useState('')
  useEffect(() => {
    void hubApi.frame('map').then(({ frame }) => {
      const map = frame.state as { kinds?: string[]; presets?: string[] }
      setChoices({ kinds: map.kinds ?? [], presets: map.presets ?? [] })
    }, () => undefined)
  }, [state.tiles.length])
  if (!can.act) return null
  const open = (): void => {
    if (choice === '') return
    const [how, name] = choice.split(':', 2) as [string, string]
    void actAsPerson({ surface: 'map', action: 'open', input: how === 'preset' ? { preset: name } : { kind: name } })
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
      <select id="launch-choice" value={choice} onChange={(event) => setChoice(event.target.value)}>
        <option value="">choose a tile…</option>
        {choices.presets.length > 0 && (
          <optgroup label="Configured">
            {choices.presets.map((preset) => (
              <option key={preset} value={`preset:${preset}`}>
                {preset}
              </option>
            ))}
          </optgroup>
        )}
        <optgroup label="New">
          {choices.kinds.map((kind) => (
            <option key={kind} value={`kind:${kind}`}>
              {kind}
            </option>
          ))}
        </optgroup>
      </select>
      <button type="submit" disabled={choice === ''}>
        Open
      </button>
    </form>
  )
}
