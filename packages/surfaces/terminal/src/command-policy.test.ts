import { describe, expect, it } from 'vitest'
import { classifyCommand } from './command-policy.js'
import { scanShell } from './shell-scan.js'

const risk = (command: string) => classifyCommand(command).risk

describe('classifyCommand: known bypass shapes', () => {
  it.each([
    ['command substitution', 'echo $(rm -rf /)'],
    ['backticks', 'echo `rm -rf /`'],
    ['substitution inside double quotes', 'echo "today: $(rm -rf ~)"'],
    ['nested substitution', 'echo $(echo $(rm -rf /))'],
    ['process substitution', 'diff <(ls) <(rm -rf /)'],
    ['absolute path', '/bin/rm -rf x'],
    ['relative path', './node_modules/.bin/../../bin/rm -rf x'],
    ['backslash-escaped name', '\\rm -rf build'],
    ['quoted name', '"rm" -rf build'],
    ['newline', 'ls\nrm -rf /'],
    ['semicolon', 'ls; rm -rf /'],
    ['and-list', 'true && rm -rf /'],
    ['pipeline', 'yes | rm -rf /'],
    ['background', 'rm -rf / &'],
    ['subshell', '(cd / && rm -rf .)'],
    ['sh -c', "sh -c 'rm -rf /'"],
    ['bash -lc', 'bash -lc "rm -rf $HOME"'],
    ['bash -c with options', 'bash -e -o pipefail -c "rm -rf /"'],
    ['env', 'env rm -rf /'],
    ['env with assignments and options', 'env -i FOO=1 rm -rf /'],
    ['env -S', "env -S 'rm -rf /'"],
    ['prefix assignment', 'FOO=1 rm -rf /'],
    ['xargs rm -rf', 'find . -name "*.log" | xargs rm -rf'],
    ['xargs rm with options', 'xargs -0 -n 10 rm'],
    ['find -delete', 'find . -delete'],
    ['find -exec rm', 'find . -name "*.o" -exec rm {} \\;'],
    ['find -execdir rm +', 'find . -execdir rm -f {} +'],
    ['alias', "alias ls='rm -rf /'; ls"],
    ['sudo', 'sudo rm -rf /'],
    ['sudo with options', 'sudo -u root -E rm -rf /'],
    ['nohup', 'nohup rm -rf build &'],
    ['time', 'time rm -rf build'],
    ['command', 'command rm -rf build'],
    ['exec', 'exec rm -rf build'],
    ['nice', 'nice -n 10 rm -rf build'],
    ['timeout', 'timeout -s KILL 5 rm -rf build'],
    ['eval', 'eval "rm -rf /"'],
    ['watch', 'watch -n 1 rm -rf build'],
    ['su -c', "su -c 'rm -rf /' root"],
    ['here-document that expands', 'cat <<EOF\n$(rm -rf /)\nEOF'],
    ['function body', 'f() { rm -rf /; }; f'],
    ['if block', 'if true; then rm -rf /; fi'],
    ['for loop', 'for d in */; do rm -rf "$d"; done'],
    ['line continuation', 'rm \\\n -rf /'],
    ['comment does not hide the next line', '# harmless\nrm -rf /'],
    ['trap', "trap 'rm -rf /' EXIT"],
    ['$(( that bash re-reads as a subshell', 'echo $((rm -rf /) )'],
    ['coproc', 'coproc rm -rf ./src; wait'],
    ['coproc with a group', 'coproc { rm -rf ./src; }'],
    ['named coproc', 'coproc worker { rm -rf ./src; }; wait'],
    ['coproc subshell', 'coproc (rm -rf ./src)'],
    ['brace expansion as the whole command', '{rm,-rf,./notes}'],
    ['brace expansion ending a list', 'ls; {rm,-rf,./notes};'],
    ['brace expansion inside the name', 'r{m,} -rf ./notes'],
    ['brace expansion of the flags', 'rm -{r,f} ./notes'],
    ['$IFS as the separator', 'rm$IFS-rf$IFS./notes'],
    ['${IFS} as the separator', 'rm${IFS}-rf${IFS}./notes'],
    ['function keyword', 'function f { rm -rf ./src; }; f'],
    ['case branch', 'case x in x) rm -rf ./src;; esac'],
    ['select loop', 'select x in a; do rm -rf ./src; done'],
    ['until loop', 'until false; do rm -rf ./src; done'],
    ['negated', '! rm -rf ./src'],
    ['group', '{ rm -rf ./src; }'],
    ['empty quotes inside the name', 'r""m -rf ./src'],
    ['single-quoted piece of the name', "r'm' -rf ./src"],
    ['end of options', 'rm -rf -- ./src'],
    ['an expansion too large to judge', 'echo {1..9}{1..9}{1..9}{1..9}'],
  ])('%s → destructive: %s', (_, command) => {
    expect(risk(command)).toBe('destructive')
  })

  it('names the recursive deletion in its reasons and lists every argv', () => {
    const result = classifyCommand("sh -c 'rm -rf /tmp/x'")
    expect(result.reasons.some((reason) => reason.includes('deletes recursively'))).toBe(true)
    expect(result.argvs).toContainEqual(['sh', '-c', 'rm -rf /tmp/x'])
    expect(result.argvs).toContainEqual(['rm', '-rf', '/tmp/x'])
  })
})

describe('classifyCommand: other destructive commands', () => {
  it.each([
    'rm -r dir', 'rm --recursive dir', 'rm -fR dir', 'rm -f *', 'rm ~', 'rm -f /', 'mkfs.ext4 /dev/sdb1', 'mkfs -t ext4 /dev/sdb',
    'dd if=/dev/zero of=/dev/sda bs=1M', 'cat image.iso > /dev/sdb', 'cp image.iso /dev/nvme0n1', 'shred -u secret.txt', 'wipefs -a /dev/sda',
    'fdisk /dev/sda', 'parted /dev/sda rm 1', 'shutdown -h now', 'reboot', 'halt', 'poweroff', 'systemctl reboot', 'init 0',
    'kill -9 1', 'kill -KILL -1', 'kill -s KILL 1', 'chmod -R 777 /', 'chown -R nobody /etc', 'truncate -s 0 data.db', ':(){ :|:& };:',
    'git clean -fdx', 'git clean -f', 'git reset --hard HEAD~3', 'git push --force origin main', 'git push -f', 'git push origin +main',
    'git stash clear', 'crontab -r', 'mv important.txt /dev/null',
  ])('%s → destructive', (command) => {
    expect(risk(command)).toBe('destructive')
  })
})

describe('classifyCommand: benign commands', () => {
  it.each([
    'ls -la', 'ls --color=always /', 'cat README.md | grep -n foo | head -5', 'pwd', 'echo hello', 'echo hi 2>/dev/null', 'ls 2>&1 | wc -l',
    'grep -rn "rm -rf" src', "echo 'rm -rf /'", "echo '$(rm -rf /)'", 'cat <<EOF\nrm -rf /\nEOF', "cat <<'EOF'\n$(rm -rf /)\nEOF",
    'find . -name "*.ts" -type f', 'find / -exec grep -l x {} +', 'git status', 'git log --oneline -5', 'git diff HEAD~1', 'git branch -a',
    'env', 'date', 'whoami', 'uname -a', 'ps aux', 'df -h', 'du -sh .', 'wc -l src/*.ts', 'stat file', 'which bash', 'cd /tmp && ls',
    'echo $((1 + 2))', 'kill -l', 'command -v git', 'sort file | uniq -c', 'top -b -n1', 'grep foo file # rm -rf /',
  ])('%s → read', (command) => {
    expect(risk(command)).toBe('read')
  })

  it.each([
    'rm file.txt', 'touch x', 'echo hi > out.txt', 'echo hi >> out.txt', 'mkdir -p a/b', 'npm install', 'make', 'chmod -R 755 ./build',
    'git commit -m "x"', 'git push origin main', 'git reset HEAD file', 'kill 1234', 'export FOO=1', 'FOO=1', 'echo "$(date)"', 'x=$(ls)',
    '$CMD -rf /', 'bash script.sh', 'source venv/bin/activate', 'python3 -c "import os"', 'ls | tee out.txt', 'sort -o out in', 'bash',
    "alias ll='ls -l'", 'echo "unterminated',
  ])('%s → write', (command) => {
    expect(risk(command)).toBe('write')
  })

  it('treats a command name computed at run time as write and says it cannot see it', () => {
    const result = classifyCommand('$(echo rm) -rf /')
    expect(result.risk).toBe('write')
    expect(result.reasons.join(' ')).toMatch(/computed when it runs/)
  })
})

describe('scanShell', () => {
  it('splits lines at unquoted newlines only and skips here-document bodies', () => {
    const scanned = scanShell("echo 'a\nb'\ncat <<-EOF\n\trm -rf /\n\tEOF\nls")
    expect(scanned.lines).toEqual(["echo 'a\nb'", 'cat <<-EOF', 'ls'])
    expect(scanned.substitutions).toEqual([])
  })

  it('finds substitutions in double quotes and backticks but not in single quotes', () => {
    const scanned = scanShell('echo "$(whoami)" `date` \'$(nope)\' <(ls)')
    expect(scanned.substitutions).toEqual(['whoami', 'date', 'ls'])
  })

  it('reports unterminated quotes', () => {
    expect(scanShell('echo "abc').problems).toContain('unterminated double quote')
    expect(scanShell("echo 'abc").problems).toContain('unterminated single quote')
  })
})
