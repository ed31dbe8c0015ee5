import type { DisputeEvidence, DisputeEvidenceField } from '../../../domain/charge/dispute-events.ts';

/**
 * The evidence fields of this service (the Shift4 client libraries' names) that Stripe's dispute
 * `evidence` takes as text, by Stripe's names.
 */
const STRIPE_TEXT_FIELDS: Partial<Record<DisputeEvidenceField, string>> = {
  productDescription: 'product_description',
  customerName: 'customer_name',
  customerEmail: 'customer_email_address',
  customerPurchaseIp: 'customer_purchase_ip',
  billingAddress: 'billing_address',
  serviceDate: 'service_date',
  duplicateChargeId: 'duplicate_charge_id',
  duplicateChargeExplanation: 'duplicate_charge_explanation',
  refundPolicyDisclosure: 'refund_policy_disclosure',
  refundRefusalExplanation: 'refund_refusal_explanation',
  cancellationPolicyDisclosure: 'cancellation_policy_disclosure',
  cancellationRefusalExplanation: 'cancellation_rebuttal',
  accessActivityLogs: 'access_activity_log',
  shippingAddress: 'shipping_address',
  shippingDate: 'shipping_date',
  shippingCarrier: 'shipping_carrier',
  shippingTrackingNumber: 'shipping_tracking_number',
};

/**
 * Stripe's `evidence` for the merchant's. The fields Stripe takes as text go to their counterparts;
 * Stripe's document fields take only files uploaded to Stripe, so what the merchant gave in the
 * others (a URL, a document number, as text) is added to `uncategorized_text` under its own name,
 * and nothing the merchant gave is dropped.
 */
export function stripeDisputeEvidence(evidence: DisputeEvidence): Record<string, string> {
  const stripe: Record<string, string> = {};
  const uncategorized: string[] = [];
  for (const [field, value] of Object.entries(evidence) as [DisputeEvidenceField, string][]) {
    const text = STRIPE_TEXT_FIELDS[field];
    if (field === 'uncategorizedText') uncategorized.unshift(value);
    else if (text) stripe[text] = value;
    else uncategorized.push(`${field}: ${value}`);
  }
  if (uncategorized.length > 0) stripe.uncategorized_text = uncategorized.join('\n');
  return stripe;
}
