import type { Request, RequestHandler } from 'express';
import ipaddr from 'ipaddr.js';
import { HttpError } from './errors.ts';
import { requestState } from './request-state.ts';

/** Where a developer's plain-HTTP test-mode calls come from: this machine or a private network. */
const LOCAL_RANGES = new Set(['loopback', 'private', 'uniqueLocal', 'linkLocal']);

/**
 * The spec requires HTTPS. Live-mode requests that did not arrive over HTTPS (directly, or per
 * X-Forwarded-Proto from a trusted proxy, see TRUST_PROXY) are refused with 400 before anything
 * runs. Test mode may use plain HTTP from a local client (loopback or private addresses), so that
 * development and tests need no certificate; from anywhere else it needs HTTPS too.
 */
export function requireHttpsForLiveMode(): RequestHandler {
  return (req, res, next) => {
    const auth = requestState(res).auth;
    if (req.secure || !auth) {
      next();
      return;
    }
    if (auth.mode === 'test' && isLocalClient(req)) {
      next();
      return;
    }
    next(
      new HttpError(
        400,
        'invalid_request',
        auth.mode === 'live'
          ? 'Live mode requests must be made over HTTPS'
          : 'Requests must be made over HTTPS (plain HTTP is accepted only in test mode from a local network)',
      ),
    );
  };
}

/** Addresses already classified: a client sends many requests, and parsing an address each time shows in profiles. */
const KNOWN_ADDRESSES_LIMIT = 1000;
const knownAddresses = new Map<string, boolean>();

function isLocalClient(req: Request): boolean {
  const ip = req.ip ?? req.socket.remoteAddress;
  if (!ip) return false;
  let local = knownAddresses.get(ip);
  if (local === undefined) {
    local = isLocalAddress(ip);
    if (knownAddresses.size >= KNOWN_ADDRESSES_LIMIT) knownAddresses.clear();
    knownAddresses.set(ip, local);
  }
  return local;
}

function isLocalAddress(ip: string): boolean {
  if (!ipaddr.isValid(ip)) return false;
  let address = ipaddr.parse(ip);
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress())
    address = (address as ipaddr.IPv6).toIPv4Address();
  return LOCAL_RANGES.has(address.range());
}
