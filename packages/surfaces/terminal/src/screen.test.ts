import { describe, expect, it } from 'vitest'
import { Screen } from './screen.js'

describe('Screen', () => {
  it('parses a write at once when nothing is queued, and sends the program nothing for it', async () => {
    const replies: string[] = []
    const screen = new Screen({ cols: 40, rows: 5, scrollback: 10, reply: (data) => replies.push(data) })
    screen.write('hello\r\nworld')
    expect(screen.lines().slice(0, 2)).toEqual(['hello', 'world'])
    await screen.settle()
    expect(replies).toEqual([])
    screen.dispose()
  })

  it('still answers a program that asks where the cursor is', async () => {
    const replies: string[] = []
    const screen = new Screen({ cols: 40, rows: 5, scrollback: 10, reply: (data) => replies.push(data) })
    screen.write('ab\x1b[6n')
    await screen.settle()
    expect(replies).toEqual(['\x1b[1;3R'])
    screen.dispose()
  })

  it('keeps every chunk of a burst, in order, once settled', async () => {
    const screen = new Screen({ cols: 20, rows: 4, scrollback: 100, reply: undefined })
    for (let i = 0; i < 50; i++) screen.write(`line ${i}\r\n`)
    await screen.settle()
    expect(screen.lines().slice(0, 3)).toEqual(['line 47', 'line 48', 'line 49'])
    screen.dispose()
  })
})
