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
      name: 'api-changes-things-through-command-services',
      comment:
        "services/api answers HTTP requests: it changes things only by calling command services (`Commands`, packages/commands/*-commands.ts) and reads through the read side and the log's readers (`EventLog`). It never decides or appends on its own: not the aggregate store nor the parts command services are made of (card intake, card sources, creation flows), not a decider of packages/domain, not the event store's appends or adapters. A workflow over several aggregates is a command service the route calls.",
      severity: 'error',
      from: { path: '^services/api/' },
      to: {
        path: [
          '^packages/commands/',
          '^packages/domain/.*decider\\.ts$',
          '^packages/domain/charge/charge-authorization\\.ts$',
          '^packages/domain/credit/credit-transfer\\.ts$',
          '^packages/eventstore/',
          '^services/resource-commands\\.ts$',
        ],
        pathNot: [
          // The command services, what their calls take and answer, and the offer images' store.
          '^packages/commands/([a-z-]+-commands|command-context|command-outcome|payment-declined|three-d-secure-options|offer-image)\\.ts$',
          // Reading the log: streams, the whole log, its head.
          '^packages/eventstore/(event-log|upcast-recorded-event)\\.ts$',
        ],
      },
    },
    {
      name: 'api-routes-are-not-handed-the-platform',
      comment:
        'The platform holds the aggregate store and the event store. Only the API composition (services/api/app.ts) sees it, and hands routes what they may use (`ApiDependencies`: commands, reader, streams).',
      severity: 'error',
      from: { path: '^services/api/', pathNot: '^services/api/app\\.ts$' },
      to: { path: '^services/platform\\.ts$' },
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
