/** English: the reference catalog; every other language has exactly its keys. */
export const en = {
  // Checkout page
  testMode: 'Test mode',
  email: 'Email',
  card: 'Card',
  cardNumber: 'Card number',
  expiry: 'Expiration date',
  securityCode: 'Security code',
  total: 'Total',
  pay: 'Pay',
  payAmount: 'Pay {amount}',
  subscribeFor: 'Subscribe for {price}',
  // A plan's price: one form per plural category of the language (`{count}` chooses it)
  everyHour: { one: '{amount} / hour', other: '{amount} every {count} hours' },
  everyDay: { one: '{amount} / day', other: '{amount} every {count} days' },
  everyWeek: { one: '{amount} / week', other: '{amount} every {count} weeks' },
  everyMonth: { one: '{amount} / month', other: '{amount} every {count} months' },
  everyYear: { one: '{amount} / year', other: '{amount} every {count} years' },
  trial: {
    one: '{count}-day free trial: the first payment is after it ends.',
    other: '{count}-day free trial: the first payment is after it ends.',
  },
  amount: 'Amount',
  otherAmount: 'Other amount',
  amountRange: 'From {min} to {max}',
  rememberMe: 'Remember me',
  rememberHint: 'Save this card for this email, to pay in one step next time after confirming a code.',
  orPayWithout: 'or pay without a card',
  payWith: 'Pay with {method}',
  termsAccept: 'By paying you accept the',
  terms: 'terms and conditions',
  paymentSuccessful: 'Payment successful',
  subscriptionStarted: 'Subscription started',
  done: 'Done',
  close: 'Close',
  youMayAlsoLike: 'You may also like',
  buyFor: 'Buy for {amount}',
  offeredBy: 'Offered by {company}',
  linkNotValidTitle: 'Payment link not valid',
  linkNotValid: 'This payment link is not valid. Please go back to the shop.',
  unavailableTitle: 'Checkout is not available',
  unavailable: 'Checkout is not available right now. Please try again later.',
  enterEmail: 'Enter your email address.',
  enterAmountRange: 'Enter an amount from {min} to {max}.',
  authenticationFailed: 'Card authentication failed. Try again, or use another card.',
  authenticationCancelled: 'Card authentication was cancelled. Try again, or use another card.',
  // Card fields
  numberLabel: 'Card number',
  expiryLabel: 'Expiration date (MM / YY)',
  expiryPlaceholder: 'MM / YY',
  cvcLabel: 'Security code',
  nameLabel: 'Name on card',
  // 3-D Secure challenge
  challengeTitle: '3-D Secure authentication',
  confirmPayment: 'Confirm your payment',
  challengeIntro: 'To protect your card, enter the one-time code we sent to your phone.',
  oneTimeCode: 'One-time code',
  testIssuerHint: 'Test issuer: any 6 digits, for example 123456.',
  completeAuthentication: 'Complete authentication',
  failAuthentication: 'Fail authentication',
  // Payment-method page
  methodPayment: '{method} payment',
  payAmountToWith: 'Pay {amount} to {merchant} with {method}',
  howAnswers: 'How does {method} answer?',
  providerHelp: 'This page plays the payment method provider. Choose the outcome to simulate.',
  authorize: 'Authorize',
  decline: 'Decline',
  processingLater: 'Processing (confirmed later)',
  returnToMerchant: 'Return to the merchant',
} as const;

export type MessageKey = keyof typeof en;

/**
 * A message that depends on a number (`{count}`): a form for each plural category the language
 * uses for whole numbers (`Intl.PluralRules`: English one / other, Polish one / few / many / other).
 */
export type PluralMessage = { readonly [category in Intl.LDMLPluralRule]?: string } & { readonly other: string };
export type Message = string | PluralMessage;

/** Every key of English, each a plain message where English has one, else a plural one. */
export type Catalog = { readonly [K in MessageKey]: (typeof en)[K] extends string ? string : PluralMessage };
