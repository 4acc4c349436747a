import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { afterAll, beforeAll } from 'vitest'
import { connectHttpClient, resultText, useTestHub } from '../support/hub.js'
import { type CorpusServer, serveCorpus } from './corpus/corpus.js'

/** What a describe block of tasks on the corpus uses: the pages on loopback, a hub, an MCP client of it. */
export interface CorpusClient {
  corpus: CorpusServer
  client: Client
  /** A tool's text; a tool error fails the test with it. */
  call(name: string, args: Record<string, unknown>): Promise<string>
}

/** Serves the corpus and starts a hub with an MCP client (the official SDK's) for the enclosing describe block. */
export function useCorpusClient(): CorpusClient {
  const t = useTestHub()
  const at = {
    async call(name: string, args: Record<string, unknown>): Promise<string> {
      const answer = await at.client.callTool({ name, arguments: args })
      const text = resultText(answer)
      if (answer.isError === true) throw new Error(`${name} failed: ${text}`)
      return text
    },
  } as CorpusClient
  beforeAll(async () => {
    at.corpus = await serveCorpus()
    at.client = await connectHttpClient(t.hub.mcpUrl, t.agentToken)
  })
  afterAll(async () => {
    await at.client.close()
    await at.corpus.close()
  })
  return at
}
