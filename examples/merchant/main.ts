import { startMerchantServer } from './merchant-server.ts';

/**
 * `npm run example`: the demo shop against a running service. The keys are the test keys the
 * service printed at its first start.
 *   SERVICE_URL=http://127.0.0.1:3000 PUBLIC_KEY=pk_test_… SECRET_KEY=sk_test_… npm run example
 */
const { SERVICE_URL = 'http://127.0.0.1:3000', PUBLIC_KEY, SECRET_KEY, PORT = '8080' } = process.env;
if (!PUBLIC_KEY?.startsWith('pk_test_') || !SECRET_KEY?.startsWith('sk_test_')) {
  console.error('Set PUBLIC_KEY and SECRET_KEY to the test keys of an account (printed at the first npm start).');
  process.exit(2);
}
const shop = await startMerchantServer({
  serviceUrl: SERVICE_URL,
  publicKey: PUBLIC_KEY,
  secretKey: SECRET_KEY,
  port: Number(PORT),
});
console.log(
  `Demo shop: ${shop.url}/ (card payment), ${shop.url}/payment-method and ${shop.url}/checkout (hosted checkout)`,
);
