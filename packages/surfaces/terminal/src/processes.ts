import { readFileSync, readdirSync } from 'node:fs'

/** The fields of /proc/<pid>/stat this package needs. */
export interface ProcStat {
  pid: number
  comm: string
  state: string
  ppid: number
  pgrp: number
  session: number
  /** Foreground process group of the process's controlling terminal; -1 without one. */
  tpgid: number
}

export function readStat(pid: number): ProcStat | null {
  let raw: string
  try {
    raw = readFileSync(`/proc/${pid}/stat`, 'utf8')
  } catch {
    return null
  }
  // comm may contain spaces and parentheses; it ends at the last ')'.
  const open = raw.indexOf('(')
  const close = raw.lastIndexOf(')')
  const fields = raw.slice(close + 2).split(' ')
  return {
    pid,
    comm: raw.slice(open + 1, close),
    state: fields[0] ?? '?',
    ppid: Number(fields[1]),
    pgrp: Number(fields[2]),
    session: Number(fields[3]),
    tpgid: Number(fields[5]),
  }
}

/** Whether a process exists and is not a zombie (a zombie is dead, just not yet reaped). */
export function isRunning(pid: number): boolean {
  const stat = readStat(pid)
  return stat !== null && stat.state !== 'Z' && stat.state !== 'X'
}

/** Whether any process, zombie or not, still holds this pid. */
export function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

export function allProcesses(): ProcStat[] {
  const out: ProcStat[] = []
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    const stat = readStat(Number(name))
    if (stat !== null) out.push(stat)
  }
  return out
}

/** Every live process of a session: the shell, its jobs and whatever they started without leaving it. */
export function sessionMembers(session: number): ProcStat[] {
  return allProcesses().filter((stat) => stat.session === session && stat.state !== 'Z')
}

/** `pid` and its descendants, parents first. */
export function processTree(pid: number): ProcStat[] {
  const all = allProcesses()
  const children = new Map<number, ProcStat[]>()
  for (const stat of all) {
    const list = children.get(stat.ppid)
    if (list === undefined) children.set(stat.ppid, [stat])
    else list.push(stat)
  }
  const root = all.find((stat) => stat.pid === pid)
  if (root === undefined) return []
  const out: ProcStat[] = []
  const queue = [root]
  while (queue.length > 0) {
    const next = queue.shift() as ProcStat
    out.push(next)
    queue.push(...(children.get(next.pid) ?? []))
  }
  return out
}

export function signalQuietly(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(pid, signal)
    return true
  } catch {
    return false
  }
}
