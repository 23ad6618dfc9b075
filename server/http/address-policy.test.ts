import { describe, expect, it } from 'vitest';
import { addressRefusal } from './address-policy.ts';

describe('the outbound address policy', () => {
  it('refuses IPv4 loopback, private, link-local, CGNAT, multicast, broadcast and reserved addresses', () => {
    for (const address of [
      '127.0.0.1',
      '127.255.0.9',
      '0.0.0.0',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '224.0.0.1',
      '255.255.255.255',
      '240.0.0.1',
      '192.0.2.1',
      '198.18.0.1',
    ])
      expect(addressRefusal(address), address).toMatch(/not allowed/);
  });

  it('refuses IPv6 loopback, unspecified, link-local, unique-local, multicast and documentation addresses', () => {
    for (const address of [
      '::1',
      '::',
      'fe80::1',
      'fd00:ec2::254',
      'fc00::1',
      'ff02::1',
      '2001:db8::1',
      '100::1',
    ])
      expect(addressRefusal(address), address).toMatch(/not allowed/);
  });

  it('judges the IPv4 address inside every IPv6 form that embeds one by the IPv4 rules', () => {
    const refused = {
      'IPv4-compatible': ['::127.0.0.1', '::7f00:1', '::10.0.0.1', '::169.254.169.254'],
      'IPv4-mapped': ['::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:192.168.0.1', '::ffff:100.64.0.1'],
      'IPv4-translated': ['::ffff:0:127.0.0.1', '::ffff:0:10.0.0.1'],
      NAT64: ['64:ff9b::127.0.0.1', '64:ff9b::7f00:1', '64:ff9b::a9fe:a9fe', '64:ff9b::10.1.1.1'],
      'NAT64 local-use': ['64:ff9b:1::1', '64:ff9b:1:808:8:800::'],
      '6to4': ['2002:7f00:1::1', '2002:a00:1::', '2002:a9fe:a9fe::1', '2002:c0a8:101::1'],
      // Teredo: server 127.0.0.1; client 10.0.0.1 (stored inverted: f5ff:fffe).
      Teredo: ['2001:0:7f00:1::1', '2001:0:808:808:0:0:f5ff:fffe'],
    };
    for (const [form, addresses] of Object.entries(refused))
      for (const address of addresses)
        expect(addressRefusal(address), `${form} ${address}`).toMatch(/not allowed/);
  });

  it('lets public addresses through, also when an IPv6 form carries a public IPv4 address', () => {
    for (const address of [
      '8.8.8.8',
      '93.184.216.34',
      '2606:4700:4700::1111',
      '2a00:1450:4001:80b::200e',
      '::ffff:8.8.8.8',
      '64:ff9b::8.8.8.8',
      '2002:808:808::1',
      // Teredo: server 8.8.8.8, client 1.1.1.1 (stored inverted: fefe:fefe).
      '2001:0:808:808::fefe:fefe',
    ])
      expect(addressRefusal(address), address).toBeNull();
  });

  it('refuses what is not an IP address', () => {
    expect(addressRefusal('localhost')).toMatch(/not an IP address/);
  });
});
