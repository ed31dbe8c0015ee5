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
