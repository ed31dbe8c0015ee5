import { isIP } from 'node:net';
import { z } from 'zod';
import { isCountryCode } from './country-codes.ts';
import { blacklistRuleTypes } from '../../../packages/domain/blacklist/blacklist-rule.ts';
import { p } from '../../../packages/http/params.ts';

/**
 * Which attributes belong to which `ruleType` is checked by the command (one rule type per
 * request); here each attribute gets its shape. Messages never quote values (card numbers).
 */

const ipAddress = () =>
  z
    .string({ error: 'must be a string' })
    .refine((value) => isIP(value) !== 0, { error: 'must be an IPv4 or IPv6 address' })
    .meta({
      description: 'ip_address rules: the IPv4 or IPv6 address of the request, matched exactly',
      example: '203.0.113.7',
    });

const ipCountry = () =>
  z
    .string({ error: 'must be a string' })
    .refine(isCountryCode, {
      error: 'must be a two-letter ISO country code',
    })
    .meta({
      description: 'ip_country rules: two-letter ISO country code of the request IP (any case; stored upper-cased)',
      example: 'PL',
    });

const email = () =>
  z
    .email({ error: 'must be a valid email address' })
    .max(255, { error: 'must be at most 255 characters long' })
    .meta({ description: 'email rules: the email address, matched case-insensitively', example: 'fraud@example.com' });

export const createBlacklistRuleBody = p.object({
  ruleType: p.enum(blacklistRuleTypes, {
    description: 'The kind of condition; give the attribute(s) of this type and no others',
  }),
  fingerprint: p
    .string({
      min: 1,
      max: 255,
      description: 'fingerprint rules: a card fingerprint (give this or cardNumber, not both)',
    })
    .optional(),
  cardNumber: p
    .string({
      min: 1,
      max: 64,
      description:
        'fingerprint rules: a card number, turned into its fingerprint and never stored (give this or fingerprint)',
    })
    .optional(),
  ipAddress: ipAddress().optional(),
  ipCountry: ipCountry().optional(),
  metadataKey: p
    .string({ min: 1, max: 255, description: 'metadata rules: the metadata key of the charge', example: 'campaign' })
    .optional(),
  metadataValue: p
    .string({
      min: 1,
      max: 255,
      description: 'metadata rules: the value of that key, matched exactly',
      example: 'spam',
    })
    .optional(),
  email: email().optional(),
  userAgent: p
    .string({ min: 1, max: 1024, description: 'user_agent rules: the User-Agent of the customer, matched exactly' })
    .optional(),
  acceptLanguage: p
    .string({
      min: 1,
      max: 1024,
      description: 'accept_language rules: the Accept-Language of the customer, matched exactly',
    })
    .optional(),
});

export const listBlacklistRulesQuery = p.listQuery({
  deleted: p.bool({ description: 'true lists only deleted rules; default false' }).optional(),
});

export const blacklistRuleIdParams = z.object({
  ruleId: z.string().meta({ description: 'Blacklist rule id (blr_…)' }),
});

export const blacklistRuleSchema = z
  .object({
    id: z.string(),
    created: z.number().int(),
    objectType: z.literal('blacklistRule'),
    ruleType: z.enum(blacklistRuleTypes),
    fingerprint: z.string().optional().meta({ description: 'fingerprint rules' }),
    ipAddress: z.string().optional().meta({ description: 'ip_address rules' }),
    ipCountry: z.string().optional().meta({ description: 'ip_country rules (upper case)' }),
    metadataKey: z.string().optional().meta({ description: 'metadata rules' }),
    metadataValue: z.string().optional().meta({ description: 'metadata rules' }),
    email: z.string().optional().meta({ description: 'email rules' }),
    userAgent: z.string().optional().meta({ description: 'user_agent rules' }),
    acceptLanguage: z.string().optional().meta({ description: 'accept_language rules' }),
    deleted: z.literal(true).optional(),
  })
  .meta({
    id: 'BlacklistRule',
    description: 'One condition; a charge creation request matching it fails with code blacklisted.',
  });
