// One body served at one path on a loopback port, as the benchmark's generated and packaged
// pages are: every request gets it whole.
import { createServer } from 'node:http'

/** Serves `body` (a Buffer) with `type` at `path` on 127.0.0.1; `url` and `close`. */
export async function serveBody(path, body, type) {
  const server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': type, 'content-length': body.length })
    res.end(body)
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${server.address().port}${path}`, close: () => new Promise((resolve) => server.close(resolve)) }
}
