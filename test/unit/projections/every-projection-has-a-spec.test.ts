import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Projection } from '../../../packages/projection-runtime/projection.ts';
import type { PublicObjectEvents } from '../../../projections/read-side.ts';
import { allProjections, publicObjects } from '../../../services/resources/registries.ts';

const here = dirname(fileURLToPath(import.meta.url));

/**
 * The projections the spec files of this folder run (`projectionSpec(x)`, or
 * `projectionSpec(x(publicObjects))` for those built from every resource's public events), by name.
 */
async function specifiedProjections(): Promise<string[]> {
  const names: string[] = [];
  for (const file of readdirSync(here).filter((name) => name.endsWith('-projection.test.ts'))) {
    const source = readFileSync(join(here, file), 'utf8');
    for (const [, binding] of source.matchAll(/projectionSpec\((\w+)(?:\(publicObjects\))?\)/g)) {
      const from = new RegExp(`import \\{[^}]*\\b${binding}\\b[^}]*\\} from '([^']+)'`).exec(source)?.[1];
      if (!from) throw new Error(`${file}: cannot tell where ${binding} comes from`);
      const module = (await import(resolve(here, from))) as Record<
        string,
        Projection | ((everyPublicObject: readonly PublicObjectEvents[]) => Projection)
      >;
      const projection = module[binding!]!;
      names.push((typeof projection === 'function' ? projection(publicObjects) : projection).name);
    }
  }
  return names;
}

describe('projection specs', () => {
  it('cover every projection of the service', async () => {
    const specified = new Set(await specifiedProjections());
    const missing = allProjections()
      .map((projection) => projection.name)
      .filter((name) => !specified.has(name));
    expect(missing).to.deep.equal([]);
  });
});
