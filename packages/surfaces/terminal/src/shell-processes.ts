import { setTimeout as delay } from 'node:timers/promises'
import { type ProcStat, isRunning, processTree, readStat, sessionMembers, signalQuietly } from './processes.js'

/** Longest interrupt and kill wait for a line that just started to put its program in the foreground. */
const FOREGROUND_WAIT_MS = 500

/** The shell's pid below the PTY: inside bubblewrap the PTY's child is bwrap, and the shell the first bash under it. */
export function findShellPid(ptyPid: number, sandboxed: boolean): number {
  const tree = sandboxed ? processTree(ptyPid) : [readStat(ptyPid)]
  return tree.find((stat) => stat !== null && stat.comm === 'bash')?.pid ?? ptyPid
}

/**
 * The shell and the foreground process group, once a just-started line's program has
 * taken the foreground and replaced the forked copy of bash (before its exec, that copy
 * still catches SIGINT the way the interactive shell does, so a Ctrl-C would be lost).
 * Gives up after FOREGROUND_WAIT_MS: a line may run only builtins, or a bash script.
 */
export async function settledForeground(ptyPid: number | null, shellStat: () => ProcStat | null, busy: () => boolean): Promise<{ shell: ProcStat | null; foreground: number }> {
  const deadline = performance.now() + FOREGROUND_WAIT_MS
  for (;;) {
    const shell = shellStat()
    const foreground = ptyPid === null ? -1 : (readStat(ptyPid)?.tpgid ?? -1)
    const leader = foreground > 0 && shell !== null && foreground !== shell.pgrp ? readStat(foreground) : null
    const settled = !busy() || shell === null || (foreground !== shell.pgrp && (leader === null || leader.comm !== shell.comm))
    if (settled || performance.now() > deadline) return { shell, foreground }
    // The foreground group changes without any event Node can wait on; look, briefly.
    await delay(5)
  }
}

/** The shell and its ancestors up to the PTY's child: processes a kill of "everything" must spare until the end. */
export function shellAncestry(ptyPid: number | undefined, shell: ProcStat | null): number[] {
  const out: number[] = []
  let stat = shell
  while (stat !== null) {
    out.push(stat.pid)
    if (stat.pid === ptyPid || stat.ppid <= 1) break
    stat = readStat(stat.ppid)
  }
  if (ptyPid !== undefined) out.push(ptyPid)
  return out
}

/**
 * Hangs up the shell's session, kills what is left of it (and of the shell's process
 * tree, which catches children that called setsid), waits until the shell is reaped
 * (`exited` resolves true once it is, false after the time given), and then until every one
 * of those processes is gone. Returns the pids it signalled.
 */
export async function terminateSession(ptyPid: number, exited: (withinMs: number) => Promise<boolean>): Promise<number[]> {
  const targets = new Map<number, ProcStat>()
  for (const stat of [...sessionMembers(ptyPid), ...processTree(ptyPid)]) targets.set(stat.pid, stat)
  for (const pid of targets.keys()) {
    signalQuietly(pid, 'SIGHUP')
    signalQuietly(pid, 'SIGCONT')
  }
  if (!(await exited(500))) {
    for (const pid of targets.keys()) signalQuietly(pid, 'SIGKILL')
    signalQuietly(ptyPid, 'SIGKILL')
    await exited(5000)
  }
  // Whatever ignored the hangup and outlived the shell goes too.
  for (const member of sessionMembers(ptyPid)) targets.set(member.pid, member)
  for (const pid of targets.keys()) if (pid !== ptyPid) signalQuietly(pid, 'SIGKILL')
  // Orphans are reaped by init, which may take its time; a zombie is dead already. No
  // event reports a non-child's end, so look, briefly.
  const deadline = Date.now() + 2000
  while ([...targets.keys()].some((pid) => isRunning(pid)) && Date.now() < deadline) await delay(10)
  return [...targets.keys()]
}
