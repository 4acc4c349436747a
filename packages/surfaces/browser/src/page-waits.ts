import type { Locator, Page } from 'playwright-core'
import type { WAIT_STATES } from './browser-schemas.js'

/** What `wait_for` waits on: text that appears or goes, an element by role (name, state) that appears or goes, or time. */
export interface WaitRequest {
  text?: string | undefined
  textGone?: string | undefined
  role?: string | undefined
  name?: string | undefined
  state?: (typeof WAIT_STATES)[number] | undefined
  gone?: boolean | undefined
  time?: number | undefined
}

/** The roles an element wait takes: WAI-ARIA 1.2's, as the accessibility tree names them. */
export const ARIA_ROLES: ReadonlySet<string> = new Set(
  ('alert alertdialog application article banner blockquote button caption cell checkbox code columnheader combobox complementary contentinfo definition deletion dialog directory document emphasis feed figure form generic grid gridcell group heading img insertion link list listbox listitem log main marquee math meter menu menubar menuitem menuitemcheckbox menuitemradio navigation none note option paragraph presentation progressbar radio radiogroup region row rowgroup rowheader scrollbar search searchbox separator slider spinbutton status strong subscript superscript switch tab table tablist tabpanel term textbox time timer toolbar tooltip tree treegrid treeitem').split(' '),
)

/** The elements of a role (and name and state) the way the accessibility tree says them, shadow roots included. */
export function elementByRole(page: Page, input: WaitRequest): Locator {
  const state = input.state
  const options: Parameters<Page['getByRole']>[1] = {
    ...(input.name === undefined ? {} : { name: input.name, exact: true }),
    ...(state === 'checked' || state === 'unchecked' ? { checked: state === 'checked' } : {}),
    ...(state === 'expanded' || state === 'collapsed' ? { expanded: state === 'expanded' } : {}),
    ...(state === 'disabled' || state === 'enabled' ? { disabled: state === 'disabled' } : {}),
    ...(state === 'selected' ? { selected: true } : {}),
    ...(state === 'pressed' ? { pressed: true } : {}),
  }
  return page.getByRole(input.role as Parameters<Page['getByRole']>[0], options)
}
