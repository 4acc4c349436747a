const PASSED_ENV = ['PATH', 'HOME', 'USER', 'LOGNAME', 'LANG', 'LC_ALL', 'LC_CTYPE', 'TZ', 'TMPDIR']
const DEFAULT_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'

/**
 * The controlled environment a terminal's shell starts with: a few variables of the host's
 * (never its secrets), pagers that do not wait for a key, no history file, and what the
 * caller adds. See docs/terminal.md, "Environment".
 */
export function shellEnvironment(shell: string, extra: Record<string, string> | undefined): Record<string, string> {
  const env: Record<string, string> = {}
  for (const name of PASSED_ENV) {
    const value = process.env[name]
    if (value !== undefined) env[name] = value
  }
  env.PATH ??= DEFAULT_PATH
  env.LANG ??= 'C.UTF-8'
  Object.assign(env, {
    TERM: 'xterm-256color',
    SHELL: shell,
    HISTFILE: '/dev/null',
    PAGER: 'cat',
    GIT_PAGER: 'cat',
    MANPAGER: 'cat',
    SYSTEMD_PAGER: '',
    VIRTUAL_ENV_DISABLE_PROMPT: '1',
    TESSERA_TERMINAL: '1',
  })
  for (const [name, value] of Object.entries(extra ?? {})) {
    if (typeof value === 'string') env[name] = value
  }
  return env
}
