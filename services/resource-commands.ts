import type { CommandFactory, CommandWiring, Commands } from './commands.ts';
import { resourceModules } from './resources/index.ts';

/** Every command service's name and factory, resource by resource (the resource list's modules). */
export const commandFactories = (): [string, CommandFactory<object>][] =>
  resourceModules.flatMap(({ commands }) => Object.entries<CommandFactory<object>>(commands));

/**
 * Builds the command services from the wiring: each on first use, so that a service may use
 * others whatever their order in the resource list (there are no cycles between them).
 */
export function buildCommands(wiring: Omit<CommandWiring, 'commands'>): Commands {
  const factories = new Map<string, CommandFactory<object>>();
  for (const [name, factory] of commandFactories()) {
    // Two resources naming a service alike would silently share one: refuse to start instead.
    if (factories.has(name)) throw new Error(`Two command services are named ${name}`);
    factories.set(name, factory);
  }
  const built = new Map<string, object>();
  // Filled with every service below: the resource list checks that each service of `Commands` has its factory.
  const commands = {} as Commands;
  const full: CommandWiring = { ...wiring, commands };
  for (const [name, factory] of factories) {
    Object.defineProperty(commands, name, {
      enumerable: true,
      get() {
        let service = built.get(name);
        if (!service) built.set(name, (service = factory(full)));
        return service;
      },
    });
  }
  // Build them all now, so that a failing factory stops the start, not a later request.
  for (const name of factories.keys()) void commands[name as keyof Commands];
  return full.commands;
}
