/**
 * The package arrows of DESIGN.md, checked on every import (tests included):
 * protocol ← kit, ui ← gateway ← surfaces ← hub (and its CLI); the client and the console
 * reach the hub only over the wire; a surface never imports another surface.
 * test/arrows.test.ts runs these rules; `npm run arrows` prints them.
 */
const layer = (name, allowed) => ({
  name: `${name}-imports-only-${allowed.join('-') || 'itself'}`,
  severity: 'error',
  comment: `${name} may import only ${allowed.length ? allowed.join(', ') : 'nothing of the project'}`,
  from: { path: `^packages/${name}/` },
  to: { path: '^(packages|examples)/', pathNot: `^packages/(${[name, ...allowed].join('|')})/` },
})

module.exports = {
  forbidden: [
    layer('protocol', []),
    layer('kit', ['protocol']),
    layer('ui', ['protocol']),
    layer('gateway', ['protocol']),
    layer('client', ['protocol']),
    {
      name: 'surface-imports-no-other-surface',
      severity: 'error',
      comment: 'a surface never imports another surface',
      from: { path: '^packages/surfaces/([^/]+)/' },
      to: { path: '^packages/surfaces/', pathNot: '^packages/surfaces/$1/' },
    },
    {
      name: 'surface-imports-nothing-above',
      severity: 'error',
      comment: 'surfaces sit below the hub and know nothing of clients or examples',
      from: { path: '^packages/surfaces/' },
      to: { path: '^(packages/(hub|client|console)|examples)/' },
    },
    {
      name: 'hub-imports-no-example',
      severity: 'error',
      comment: 'demo content is configuration, not an import of the hub',
      from: { path: '^packages/hub/' },
      to: { path: '^(examples|packages/client)/' },
    },
    {
      name: 'example-imports-authoring-packages-only',
      severity: 'error',
      comment: 'an example app is written with protocol, kit, ui and the app surface',
      from: { path: '^examples/' },
      to: { path: '^packages/', pathNot: '^packages/(protocol|kit|ui|surfaces/app)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist)/' },
    tsPreCompilationDeps: true,
    // Workspace packages resolve to their sources, as the tests run them.
    enhancedResolveOptions: { conditionNames: ['tessera-source', 'import', 'default'], exportsFields: ['exports'], extensions: ['.ts', '.js', '.mjs', '.json'] },
  },
}
