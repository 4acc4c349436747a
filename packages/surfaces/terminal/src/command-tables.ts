/**
 * The tables the command policy reads: which commands only read, which delete, which run
 * other code, which paths mean "everything". Data only; the rules that use them are in
 * command-policy.ts.
 */

export const HARMLESS_TARGETS = /^\/dev\/(null|stdout|stderr|tty|fd\/\d+)$/

export const BLOCK_DEVICE = /^\/dev\/(sd[a-z]|hd[a-z]|vd[a-z]|xvd[a-z]|nvme\d|mmcblk\d|md\d|loop\d|dm-\d|disk\/|mapper\/|sr\d)/

export const RESERVED_PREFIX = new Set(['!', '{', '}', 'if', 'then', 'else', 'elif', 'fi', 'do', 'done', 'while', 'until', 'in', 'esac', '[[', ']]'])

export const NOT_COMMANDS = new Set(['for', 'select', 'case', 'function'])

export const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/

/** Commands that only read, when used without redirections (which are judged on their own). */
export const READ_ONLY = new Set([
  ':', 'true', 'false', 'test', '[', 'ls', 'cat', 'head', 'tail', 'grep', 'egrep', 'fgrep', 'rg', 'ag', 'pwd', 'echo', 'printf', 'wc', 'stat', 'file',
  'which', 'type', 'whereis', 'whatis', 'printenv', 'whoami', 'id', 'groups', 'uname', 'ps', 'pgrep', 'df', 'du', 'free',
  'uptime', 'w', 'who', 'lsof', 'lscpu', 'lsblk', 'lsusb', 'lspci', 'nproc', 'arch', 'tty', 'locale', 'realpath', 'readlink',
  'basename', 'dirname', 'cut', 'tr', 'column', 'nl', 'od', 'hexdump', 'strings', 'diff', 'cmp', 'comm', 'md5sum', 'sha1sum',
  'sha256sum', 'sha512sum', 'cksum', 'b2sum', 'jq', 'seq', 'sleep', 'history', 'less', 'more', 'man', 'help', 'tree', 'cd',
  'pushd', 'popd', 'dirs', 'fd', 'bat', 'env', 'date', 'hostname', 'sort', 'uniq', 'top', 'tac', 'rev', 'expr', 'bc', 'cal',
  'getent', 'fold', 'fmt', 'zcat', 'zgrep', 'xxd', 'base64', 'jobs', 'kill',
])

/** Commands that delete what they are given: behind xargs or find -exec they delete every match. */
export const DELETERS = new Set(['rm', 'unlink', 'rmdir', 'shred', 'srm', 'wipe'])

export const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'ash', 'mksh', 'busybox-sh'])

export const INTERPRETERS: Record<string, string[]> = {
  python: ['-c'], python3: ['-c'], python2: ['-c'], perl: ['-e', '-E'], ruby: ['-e'], node: ['-e', '--eval', '-p', '--print'], php: ['-r'], lua: ['-e'],
}

export const SYSTEM_PATHS = new Set(['/', '/*', '~', '~/', '$HOME', '/etc', '/usr', '/bin', '/sbin', '/lib', '/lib64', '/var', '/boot', '/home', '/root', '/opt', '/srv', '/dev', '/sys', '/proc'])

export const EVERYTHING = new Set(['/', '/*', '~', '~/', '~/*', '$HOME', '$HOME/', '$HOME/*', '*', '.', '..', './', './*', '.*'])

export const GIT_READ = new Set(['status', 'log', 'diff', 'show', 'blame', 'rev-parse', 'ls-files', 'ls-tree', 'describe', 'shortlog', 'grep', 'cat-file', 'help', 'version', 'whatchanged', 'rev-list', 'merge-base', 'show-ref', 'count-objects', 'var', 'ls-remote'])
