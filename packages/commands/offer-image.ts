import { InvalidRequestError } from '../domain/errors.ts';
import { newId } from '../ids/object-id.ts';
import type { Collection, Document } from '../readstore/document-store.ts';
import type { Tenant } from '../domain/tenant.ts';
import type { Mode } from '../domain/mode.ts';

/** Offer images are shown at this size (spec: Limits); others are scaled to it. */
export const OFFER_IMAGE_WIDTH = 247;
export const OFFER_IMAGE_HEIGHT = 156;
/** Largest decoded image accepted (our limit; the spec sets none). */
export const MAX_OFFER_IMAGE_BYTES = 2 * 1024 * 1024;

export interface OfferImageDoc extends Document {
  /** The scaled image, PNG, base64. */
  png: string;
  _accountId: string;
  _mode: Mode;
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** PNG, JPEG and GIF by their first bytes; anything else is refused before decoding. */
function isAcceptedFormat(bytes: Buffer): boolean {
  const png = bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  const jpeg = bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
  const gif =
    bytes.subarray(0, 6).toString('latin1') === 'GIF87a' || bytes.subarray(0, 6).toString('latin1') === 'GIF89a';
  return png || jpeg || gif;
}

/**
 * Offer images live in the operational state store, never in events (events carry `img_…`):
 * decoded from base64, scaled to 247×156 and kept as PNG.
 */
export class OfferImages {
  constructor(private readonly images: Collection<OfferImageDoc>) {}

  /** Stores the image of `imageData` (base64, optionally a `data:` URL) and returns its id. */
  async store(imageData: string, tenant: Tenant): Promise<string> {
    const png = await scaledPng(imageData);
    const id = newId('img');
    await this.images.put({
      id,
      created: Math.floor(Date.now() / 1000),
      png: png.toString('base64'),
      _accountId: tenant.accountId,
      _mode: tenant.mode,
    });
    return id;
  }

  /** The PNG bytes of an image, or null when there is none. */
  async png(imageId: string): Promise<Buffer | null> {
    const image = await this.images.get(imageId);
    return image ? Buffer.from(image.png, 'base64') : null;
  }
}

async function scaledPng(imageData: string): Promise<Buffer> {
  const text = imageData.replace(/^data:image\/[a-z]+;base64,/i, '').replace(/\s+/g, '');
  if (text.length === 0 || text.length % 4 !== 0 || !BASE64.test(text)) {
    throw new InvalidRequestError('Invalid parameter: imageData must be base64-encoded image data');
  }
  const bytes = Buffer.from(text, 'base64');
  if (bytes.length > MAX_OFFER_IMAGE_BYTES) {
    throw new InvalidRequestError(
      `Invalid parameter: imageData must be at most ${MAX_OFFER_IMAGE_BYTES} bytes once decoded`,
    );
  }
  if (!isAcceptedFormat(bytes))
    throw new InvalidRequestError('Invalid parameter: imageData must be a PNG, JPEG or GIF image');
  // Loaded on the first offer image: the image library holds tens of megabytes a process rarely needs.
  const { Jimp } = await import('jimp');
  let image;
  try {
    image = await Jimp.read(bytes);
  } catch {
    throw new InvalidRequestError('Invalid parameter: imageData must be a PNG, JPEG or GIF image');
  }
  image.resize({ w: OFFER_IMAGE_WIDTH, h: OFFER_IMAGE_HEIGHT });
  return image.getBuffer('image/png');
}
