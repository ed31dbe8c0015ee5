import { match, type MatchFunction } from 'path-to-regexp';

type Method = 'get' | 'post' | 'delete';

interface Entry<T> {
  method: Method;
  /** The path as declared, e.g. `/customers/:customerId`: what metrics and logs name the route by. */
  pattern: string;
  matches: MatchFunction<Record<string, string>>;
  value: T;
}

export interface FoundRoute<T> {
  value: T;
  pattern: string;
  params: Record<string, string>;
}

/**
 * The API's routes, found by method and path in one lookup instead of express walking a router per
 * route: the first segment of the path picks the routes declared under it (in their order), and
 * each is tried with path-to-regexp, the matcher express itself uses, with express's defaults
 * (case-insensitive, an optional trailing slash, parameters percent-decoded). HEAD finds GET routes,
 * as in express.
 */
export class RouteTable<T> {
  private readonly bySegment = new Map<string, Entry<T>[]>();

  add(method: Method, pattern: string, value: T): void {
    const segment = firstSegment(pattern);
    if (/[^a-z0-9_-]/.test(segment)) throw new Error(`Route ${pattern} must begin with a literal lower-case segment`);
    const entries = this.bySegment.get(segment) ?? [];
    const matches = match<Record<string, string>>(pattern.replace(/\/+$/, ''), {
      sensitive: false,
      trailing: true,
      decode: decodeParameter,
    });
    entries.push({ method, pattern, matches, value });
    this.bySegment.set(segment, entries);
  }

  /** The route for a request, or undefined; a parameter that is not valid percent-encoding throws a 400. */
  find(method: string, path: string): FoundRoute<T> | undefined {
    const entries = this.bySegment.get(firstSegment(path).toLowerCase());
    if (!entries) return undefined;
    const wanted = method === 'HEAD' ? 'get' : method.toLowerCase();
    for (const entry of entries) {
      if (entry.method !== wanted) continue;
      const found = entry.matches(path);
      if (found) return { value: entry.value, pattern: entry.pattern, params: found.params };
    }
    return undefined;
  }
}

function firstSegment(path: string): string {
  const end = path.indexOf('/', 1);
  return path.slice(1, end === -1 ? undefined : end);
}

function decodeParameter(value: string): string {
  if (!value.includes('%')) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    // As express's router reports it (a client error with status 400), so that it is answered and
    // logged like every other request malformed before its route.
    throw Object.assign(new URIError('Failed to decode a path parameter'), { status: 400 });
  }
}
