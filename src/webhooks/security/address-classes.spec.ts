import { classifyAddress } from './address-classes.js';

describe(classifyAddress.name, () => {
  it.each(['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8'])(
    '%s is public',
    (address) => {
      expect(classifyAddress(address)).toBe('public');
    },
  );

  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '100.64.0.1',
    '224.0.0.251',
    '239.255.255.250',
    '255.255.255.255',
    '::1',
    'fd00::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
  ])('%s is private (loopback, private, multicast or reserved)', (address) => {
    expect(classifyAddress(address)).toBe('private');
  });

  it.each([
    '169.254.169.254',
    '169.254.0.1',
    '0.0.0.0',
    '0.1.2.3',
    '::',
    'fe80::1',
    'febf::1',
    '::ffff:169.254.169.254',
    '::ffff:a9fe:a9fe',
  ])('%s is forbidden (link-local or unspecified)', (address) => {
    expect(classifyAddress(address)).toBe('forbidden');
  });

  it('is null for what is not an address', () => {
    expect(classifyAddress('example.com')).toBeNull();
  });
});
