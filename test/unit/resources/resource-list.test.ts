import { expect } from 'chai';
import { readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chargeResource, chargeStream } from '../../../packages/domain/charge/charge-events.ts';
import { customerResource, customerStream } from '../../../packages/domain/customer/customer-events.ts';
import { hasOwnStreams } from '../../../packages/domain/resource-identity.ts';
import { newId } from '../../../packages/ids/object-id.ts';
import { streamOfObject } from '../../../services/cli/stream-of-object.ts';
import { resourceModules } from '../../../services/resources/index.ts';
import type { ResourceModule } from '../../../services/resources/resource-module.ts';
import { allProjections, publicEventTypeNames, publicObjects } from '../../../services/resources/registries.ts';
import { commandFactories } from '../../../services/resource-commands.ts';

const resourcesFolder = resolve(dirname(fileURLToPath(import.meta.url)), '../../../services/resources');

describe('the resource list and what is derived from it', () => {
  it('lists every resource module (a module left out of the list would never run)', async () => {
    const listed = new Set<string>(resourceModules.map(({ identity }) => identity.name));
    const unlisted: string[] = [];
    for (const file of readdirSync(resourcesFolder).filter((name) => name.endsWith('-resource.ts'))) {
      // Loaded apart from the list's own imports, so modules are told apart by their resource's name.
      const exports = (await import(pathToFileURL(join(resourcesFolder, file)).href)) as Record<
        string,
        Partial<ResourceModule>
      >;
      for (const [name, module] of Object.entries(exports)) {
        if (!module.identity || !listed.has(module.identity.name)) unlisted.push(`${file}: ${name}`);
      }
    }
    expect(unlisted).to.deep.equal([]);
    expect(listed.size).to.equal(resourceModules.length);
  });

  it('finds the stream of every object that has one by its id, and none for the others', () => {
    for (const { identity } of resourceModules) {
      const id = newId(identity);
      if (hasOwnStreams(identity)) expect(streamOfObject(id), identity.name).to.equal(`${identity.name}-${id}`);
      else expect(streamOfObject(id), identity.name).to.equal(null);
    }
    // The streams the aggregates append to are the ones found by id.
    const [chargeId, customerId] = [newId(chargeResource), newId(customerResource)];
    expect(chargeStream(chargeId)).to.equal(streamOfObject(chargeId));
    expect(customerStream(customerId)).to.equal(streamOfObject(customerId));
    expect(streamOfObject('nope_123')).to.equal(null);
    expect(streamOfObject('')).to.equal(null);
  });

  it('gives every projection and every collection one owner', () => {
    const projections = allProjections();
    const names = projections.map((projection) => projection.name);
    expect(new Set(names).size, names.join(', ')).to.equal(names.length);
    const collections = projections.flatMap((projection) => Object.keys(projection.collections));
    expect(new Set(collections).size, collections.join(', ')).to.equal(collections.length);
  });

  it('gives every public event type exactly one kind of object as data', () => {
    const declared = publicObjects.flatMap((object) => object.types);
    expect(declared).to.have.lengthOf(publicEventTypeNames.length);
    expect(new Set(declared)).to.have.lengthOf(declared.length);
    // Every declared type is produced by some domain event of its object, and nothing else is.
    const produced = new Set(
      publicObjects.flatMap((object) =>
        object.domainEventTypes.flatMap((type) =>
          ['successful', 'failed'].flatMap((status) =>
            object.produced({ type, data: { status, previousStatus: 'active' }, metadata: {} } as never),
          ),
        ),
      ),
    );
    expect([...produced].sort()).to.deep.equal([...declared].sort());
  });

  it('names every command service once', () => {
    const names = commandFactories().map(([name]) => name);
    expect(new Set(names).size, names.join(', ')).to.equal(names.length);
  });
});
