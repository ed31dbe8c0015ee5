import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { projectRoot } from '../../../packages/config/project-root.ts';
import { encodeBody, type EncodedBodies, type Encoding } from './compressed-body.ts';

/**
 * The scripts the service serves, bundled by esbuild: the browser scripts of `packages/client-side`,
 * and the checkout request signing module for merchants' Node servers.
 */
export type BundleName =
  'shift4' | 'securionpay' | 'field' | 'challenge' | 'checkout' | 'checkoutPage' | 'signCheckoutRequest';

const ROOT = projectRoot(import.meta.dirname);
const SOURCE = resolve(ROOT, 'packages/client-side');
const ENTRY_POINTS: Record<BundleName, string> = {
  shift4: 'shift4.ts',
  securionpay: 'securionpay.ts',
  field: 'fields/field.ts',
  challenge: 'challenge/challenge.ts',
  checkout: 'checkout/checkout-js.ts',
  checkoutPage: 'checkout/checkout-page.ts',
  signCheckoutRequest: '../checkout/sign-checkout-request.ts',
};

/** Bundles for Node (an ES module a merchant's server imports), not for browsers. */
const FOR_NODE: ReadonlySet<BundleName> = new Set(['signCheckoutRequest']);

const BANNER_NAMES: Record<BundleName, string> = {
  shift4: 'shift4.js',
  securionpay: 'securionpay.js',
  field: 'shift4.js field',
  challenge: 'shift4.js challenge',
  checkout: 'checkout.js',
  checkoutPage: 'checkout.js page',
  signCheckoutRequest: 'sign-checkout-request.mjs (Node)',
};

/** The library's version is the service's: a merchant can see which build a page loaded. */
export const CLIENT_VERSION = (JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as { version: string })
  .version;

export interface Bundle {
  /** The code compressed with brotli and gzip, once, when built. */
  bodies: EncodedBodies;
  /** Strong validator of each encoding of the content (quoted SHA-256 prefix, with the encoding). */
  etags: Record<Encoding, string>;
}

/**
 * Bundles each script once per process, on its first request (about 50 ms each): a fresh clone
 * serves them after `npm install && npm start` with no build step.
 */
export class ClientBundles {
  private readonly built = new Map<BundleName, Promise<Bundle>>();

  get(name: BundleName): Promise<Bundle> {
    let bundle = this.built.get(name);
    if (!bundle) {
      bundle = bundleOf(name);
      // A failed build is retried on the next request instead of being remembered.
      bundle.catch(() => this.built.delete(name));
      this.built.set(name, bundle);
    }
    return bundle;
  }
}

async function bundleOf(name: BundleName): Promise<Bundle> {
  // The bundler is loaded when a bundle is first asked for, not at start.
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [resolve(SOURCE, ENTRY_POINTS[name])],
    bundle: true,
    write: false,
    ...(FOR_NODE.has(name)
      ? { format: 'esm', platform: 'node', target: ['node18'], minify: false }
      : { format: 'iife', target: ['es2020'], minify: true }),
    legalComments: 'none',
    banner: { js: `/*! ${BANNER_NAMES[name]} ${CLIENT_VERSION} */` },
    define: { SHIFT4_JS_VERSION: JSON.stringify(CLIENT_VERSION) },
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]!.text;
  const digest = createHash('sha256').update(code).digest('base64url').slice(0, 27);
  return {
    bodies: encodeBody(code),
    etags: { identity: `"${digest}"`, br: `"${digest}-br"`, gzip: `"${digest}-gzip"` },
  };
}
