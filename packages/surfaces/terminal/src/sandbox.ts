import { spawnSync } from 'node:child_process'
import { realpathSync, statSync } from 'node:fs'
import { isAbsolute, relative, sep } from 'node:path'
import { TesseraError } from '@tessera/protocol'

/**
 * Runs a terminal's shell inside bubblewrap: the whole file system is mounted read-only,
 * `/tmp` is a private tmpfs, and only `writableRoots` (plus the terminal's own integration
 * directory) are mounted writable. This is the boundary; command classification is only
 * a speed bump in front of it.
 */
export interface SandboxOptions {
  /** Existing directories the shell may write. Everything else is read-only. */
  writableRoots: string[]
  /** false gives the shell a network namespace of its own with only loopback: no network at all. */
  network: boolean
  /** Directories hidden behind an empty tmpfs (reading them shows nothing), e.g. `~/.ssh`. */
  hiddenPaths?: string[] | undefined
  /** The bubblewrap binary; default `bwrap` on PATH. */
  bwrap?: string | undefined
}

export interface SandboxCommand {
  file: string
  args: string[]
}

export interface SandboxLayout {
  /** Working directory inside the sandbox (the same path as outside). */
  cwd: string
  /** The terminal's integration directory (rc file, command file, FIFOs); always writable. */
  integrationDir: string
  /** The program and its arguments to run inside. */
  command: string[]
}

/**
 * The argument vector that starts `layout.command` under bubblewrap. Everything is an
 * argument array; nothing passes through a shell string.
 *
 * Not used, on purpose: `--new-session`. It would detach the shell from its PTY, which
 * kills job control (Ctrl-C, `fg`) and the prompt; the TIOCSTI injection it guards
 * against can only reach this sandbox's own PTY, whose only reader is the sandboxed shell.
 */
export function sandboxCommand(options: SandboxOptions, layout: SandboxLayout): SandboxCommand {
  const roots = checkRoots(options.writableRoots)
  const hidden = (options.hiddenPaths ?? []).map((path) => resolveExisting(path, 'hidden path'))
  const cwd = resolveExisting(layout.cwd, 'working directory')
  if (isInside(cwd, '/tmp') && !roots.some((root) => isInside(cwd, root)) && !isInside(cwd, layout.integrationDir)) {
    throw new TesseraError('invalid_input', `the working directory ${cwd} is under /tmp, which the sandbox replaces with an empty tmpfs; make it (or a parent) a writable root`, {
      expected: 'a working directory visible inside the sandbox',
      found: cwd,
    })
  }
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp']
  for (const path of hidden) args.push('--tmpfs', path)
  for (const root of roots) args.push('--bind', root, root)
  args.push('--bind', layout.integrationDir, layout.integrationDir)
  if (!options.network) args.push('--unshare-net')
  args.push('--unshare-pid', '--unshare-ipc', '--die-with-parent', '--cap-drop', 'ALL', '--chdir', cwd, '--', ...layout.command)
  return { file: options.bwrap ?? 'bwrap', args }
}

/** Whether bubblewrap can start a sandbox here (it needs user namespaces, or root). */
export function sandboxAvailable(bwrap = 'bwrap'): boolean {
  const probe = spawnSync(bwrap, ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--unshare-pid', '--cap-drop', 'ALL', '--', 'true'], {
    stdio: 'ignore',
    timeout: 5000,
  })
  return probe.status === 0
}

function checkRoots(roots: readonly string[]): string[] {
  if (!Array.isArray(roots)) {
    throw new TesseraError('invalid_input', 'expected sandbox.writableRoots to be an array of directories', { expected: 'string[]', found: typeof roots })
  }
  return roots.map((root) => {
    const real = resolveExisting(root, 'writable root')
    if (!statSync(real).isDirectory()) {
      throw new TesseraError('invalid_input', `expected the writable root ${root} to be a directory`, { expected: 'directory', found: root })
    }
    if (real === '/') {
      throw new TesseraError('invalid_input', 'a writable root of / would make the whole file system writable; name the directories the shell needs', {
        expected: 'a directory below /',
        found: root,
      })
    }
    return real
  })
}

function resolveExisting(path: string, what: string): string {
  if (typeof path !== 'string' || !isAbsolute(path)) {
    throw new TesseraError('invalid_input', `expected the ${what} to be an absolute path, found ${JSON.stringify(path)}`, { expected: 'absolute path', found: path })
  }
  try {
    return realpathSync(path)
  } catch {
    throw new TesseraError('invalid_input', `the ${what} ${path} does not exist`, { expected: 'an existing path', found: path })
  }
}

function isInside(path: string, root: string): boolean {
  const rel = relative(root, path)
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel) && !rel.startsWith(`..${sep}`))
}
