/** Architecture rules checked in CI (`npm run depcheck`). */
module.exports = {
  forbidden: [
    {
      name: 'domain-is-pure',
      comment:
        'packages/domain holds pure deciders: no infrastructure (stores, queues, HTTP, logging, real clock) and no other project package.',
      severity: 'error',
      from: { path: '^packages/domain/' },
      to: {
        pathNot: ['^packages/domain/'],
      },
    },
    {
      name: 'projections-do-not-reach-services',
      severity: 'error',
      from: { path: '^(projections|packages)/' },
      to: { path: '^services/' },
    },
    {
      name: 'commands-see-no-api-pages-or-read-side',
      comment:
        'packages/commands decide and append: they see the domain and the ports, never the HTTP kit, the API, the pages (packages/checkout, packages/client-side) or the read side (projections, packages/projection-runtime). What they need to read comes through a port of their own, typed by them.',
      severity: 'error',
      from: { path: '^packages/commands/' },
      to: { path: '^(services|projections|packages/(http|checkout|client-side|projection-runtime))/' },
    },
    {
      name: 'only-the-composition-and-api-use-commands',
      comment:
        'Command services are called by the API, the workers and the CLI (services/). The read side, the domain, the stores, the vault and the other packages never import packages/commands: what they share with it (Tenant, identities, errors) lives in packages/domain.',
      severity: 'error',
      from: { path: '^(projections|packages)/', pathNot: '^packages/(commands|http)/' },
      to: { path: '^packages/commands/' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
