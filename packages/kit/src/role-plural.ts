/** A role named for a count of elements, as English writes it: 1 checkbox, 7 checkboxes, 3 entries, 10 links. */
export function rolesOf(role: string, count: number): string {
  if (count === 1) return role
  if (/(s|x|z|ch|sh)$/.test(role)) return `${role}es`
  if (/[^aeiou]y$/.test(role)) return `${role.slice(0, -1)}ies`
  return `${role}s`
}
