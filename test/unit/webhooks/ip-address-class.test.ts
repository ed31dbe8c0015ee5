import { expect } from 'chai';
import { classifyAddress, type AddressClass } from '../../../packages/webhooks/ip-address-class.ts';

const cases: [address: string, expected: AddressClass | null][] = [
  // IPv4
  ['8.8.8.8', 'public'],
  ['93.184.215.14', 'public'],
  ['172.32.0.1', 'public'],
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['10.0.0.1', 'private'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['192.168.1.1', 'private'],
  ['100.64.0.1', 'private'],
  ['169.254.169.254', 'link-local'],
  ['0.0.0.0', 'unspecified'],
  ['0.1.2.3', 'reserved'],
  ['192.0.2.10', 'reserved'],
  ['198.18.0.1', 'reserved'],
  ['224.0.0.251', 'multicast'],
  ['240.0.0.1', 'reserved'],
  ['255.255.255.255', 'reserved'],
  // IPv6
  ['2606:4700:4700::1111', 'public'],
  ['2001:4860:4860::8888', 'public'],
  ['::1', 'loopback'],
  ['[::1]', 'loopback'],
  ['::', 'unspecified'],
  ['fe80::1', 'link-local'],
  ['fe80::1%eth0', 'link-local'],
  ['fc00::1', 'private'],
  ['fd12:3456::1', 'private'],
  ['fec0::1', 'private'],
  ['ff02::1', 'multicast'],
  ['2001:db8::1', 'reserved'],
  ['2001::1', 'reserved'], // Teredo
  ['2002:7f00:1::', 'reserved'], // 6to4 of 127.0.0.1
  ['100::1', 'reserved'],
  ['::1.2.3.4', 'reserved'], // IPv4-compatible (deprecated)
  // IPv4 inside IPv6: the IPv4 address decides
  ['::ffff:127.0.0.1', 'loopback'],
  ['::ffff:7f00:1', 'loopback'],
  ['::FFFF:10.0.0.1', 'private'],
  ['::ffff:169.254.169.254', 'link-local'],
  ['::ffff:8.8.8.8', 'public'],
  ['64:ff9b::192.168.0.1', 'private'],
  ['64:ff9b::808:808', 'public'],
  ['1:2:3:4:5:6:7.8.9.10', 'reserved'],
  // Special ranges without a class of their own fail closed
  ['192.175.48.1', 'reserved'], // AS112
  ['2001:2::1', 'reserved'], // benchmarking
  ['2001:20::1', 'reserved'], // ORCHIDv2
  // Not addresses
  ['localhost', null],
  ['1.2.3', null],
  ['', null],
];

describe('IP address classes (live-mode webhook destinations)', () => {
  for (const [address, expected] of cases) {
    it(`${address || '(empty)'} is ${expected ?? 'not an address'}`, () => {
      expect(classifyAddress(address)).to.equal(expected);
    });
  }
});
