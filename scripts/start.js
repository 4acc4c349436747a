// `npm start` will run `tessera up` (the hub with the demo surfaces) once the hub lands.
// Until then it says so, and points at what already runs.
process.stdout.write(`The Tessera hub (tessera up: MCP over stdio and Streamable HTTP, the console map,
the claims-review surface on SQLite) is not part of this build yet.

What runs today, after \`npm run build\`:
  node packages/hub/dist/cli/main.js conform examples/claims-review
  node packages/hub/dist/cli/main.js trace verify <trace.db>
  node packages/hub/dist/cli/main.js replay <trace.db> --session ID [--execute --app examples/claims-review]
`)
