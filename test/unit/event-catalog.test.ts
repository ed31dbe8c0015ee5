import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { publicObjects } from '../../services/resources/registries.ts';
import { resourceModules } from '../../services/resources/index.ts';

const catalog = readFileSync(resolve(import.meta.dirname, '../../docs/events.md'), 'utf8');

describe('event catalog (docs/events.md)', () => {
  it('documents every domain event that produces public events, and the public types it produces', () => {
    for (const object of publicObjects) {
      for (const domainType of object.domainEventTypes) {
        const sample = (status: string) => ({ type: domainType, data: { status }, metadata: {} }) as never;
        const produced = [...object.produced(sample('successful')), ...object.produced(sample('failed'))];
        if (produced.length > 0) expect(catalog, domainType).to.include(`\`${domainType}\``);
        for (const type of produced) expect(catalog, `${domainType} → ${type}`).to.include(`\`${type}\``);
      }
    }
  });

  it('documents every domain event of every resource', () => {
    for (const { identity, events } of resourceModules)
      for (const type of events) expect(catalog, `${identity.name}: ${type}`).to.include(`| \`${type}\` |`);
  });
});
