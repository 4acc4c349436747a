import { z } from 'zod'

export const Role = z.enum(['agent', 'approver', 'admin', 'viewer'])
export type Role = z.infer<typeof Role>

/** Who is acting: every request and every approval belongs to one. */
export const Principal = z.object({
  id: z.string().min(1).max(128),
  roles: z.array(Role).min(1),
})
export type Principal = z.infer<typeof Principal>
