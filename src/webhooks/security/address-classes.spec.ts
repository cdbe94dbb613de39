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

  describe('an IPv6 address that embeds an IPv4 one, judged by the IPv4 inside', () => {
    const hex = (ipv4: string): [string, string] => {
      const [a, b, c, d] = ipv4.split('.').map(Number) as [number, number, number, number];
      return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
    };
    const inverted = (group: string) => (parseInt(group, 16) ^ 0xffff).toString(16);
    /** Every form of one IPv4 address; Teredo's server is a public one (65.54.227.120). */
    const formsOf = (ipv4: string): Array<[string, string]> => {
      const [high, low] = hex(ipv4);
      return [
        ['IPv4-mapped, dotted', `::ffff:${ipv4}`],
        ['IPv4-mapped, hex', `::ffff:${high}:${low}`],
        ['IPv4-translated', `::ffff:0:${high}:${low}`],
        ['IPv4-compatible, dotted', `::${ipv4}`],
        ['IPv4-compatible, hex', `::${high}:${low}`],
        ['NAT64, dotted', `64:ff9b::${ipv4}`],
        ['NAT64, hex', `64:ff9b::${high}:${low}`],
        ['6to4', `2002:${high}:${low}::1`],
        ['6to4, a subnet of it', `2002:${high}:${low}:abcd::1`],
        ['Teredo', `2001:0:4136:e378:8000:63bf:${inverted(high)}:${inverted(low)}`],
      ];
    };
    const table = (
      [
        ['127.0.0.1', 'private'],
        ['10.0.0.1', 'private'],
        ['169.254.169.254', 'forbidden'],
        ['8.8.8.8', 'public'],
      ] as const
    ).flatMap(([ipv4, expected]) => formsOf(ipv4).map(([form, address]) => [ipv4, form, address, expected]));

    it.each(table)('%s as %s (%s) is %s', (_ipv4, _form, address, expected) => {
      expect(classifyAddress(address)).toBe(expected);
    });

    it('judges Teredo by its server too', () => {
      expect(classifyAddress('2001:0:a00:1:8000:63bf:f7f7:f7f7')).toBe('private');
    });

    it('keeps :: and ::1 as IPv6’s own unspecified and loopback addresses', () => {
      expect(classifyAddress('::')).toBe('forbidden');
      expect(classifyAddress('::1')).toBe('private');
    });
  });

  it('is null for what is not an address', () => {
    expect(classifyAddress('example.com')).toBeNull();
  });
});
