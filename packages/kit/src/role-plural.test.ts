import { describe, expect, it } from 'vitest'
import { rolesOf } from './role-plural.js'

describe('rolesOf', () => {
  it('names a count of elements by their role as English writes it', () => {
    expect(rolesOf('checkbox', 7)).toBe('checkboxes')
    expect(rolesOf('searchbox', 2)).toBe('searchboxes')
    expect(rolesOf('switch', 3)).toBe('switches')
    expect(rolesOf('status', 2)).toBe('statuses')
    expect(rolesOf('entry', 3)).toBe('entries')
    expect(rolesOf('link', 10)).toBe('links')
    expect(rolesOf('toolbar', 6)).toBe('toolbars')
    expect(rolesOf('checkbox', 1)).toBe('checkbox')
  })
})
