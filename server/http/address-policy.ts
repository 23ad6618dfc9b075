import net from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Which addresses an outbound request to a customer's URL may connect to: public unicast only.
 *
 * Classification is ipaddr.js's table of special ranges (RFC 6890 and its updates). What it
 * leaves to us is the IPv6 forms that carry an IPv4 address, because the IPv4 address inside is
 * where the packets can end up (a NAT64 gateway, a 6to4 relay, a kernel that still routes
 * IPv4-compatible addresses, a dual-stack socket for a mapped address): for those the embedded
 * IPv4 address is judged by the IPv4 rules, so `[::127.0.0.1]` is loopback and
 * `64:ff9b::8.8.8.8` (an IPv6-only network's way to reach a public IPv4 host) is public.
 */

/** IPv6 ranges whose last 32 bits are an IPv4 address. */
const embedsIPv4InLast32Bits = [
  // IPv4-compatible (RFC 4291 2.5.5.1, deprecated): ::a.b.c.d. `::` and `::1` are not in it.
  ipaddr.parseCIDR('::/96'),
  // IPv4-mapped (RFC 4291 2.5.5.2): ::ffff:a.b.c.d.
  ipaddr.parseCIDR('::ffff:0:0/96'),
  // IPv4-translated (RFC 6145): ::ffff:0:a.b.c.d.
  ipaddr.parseCIDR('::ffff:0:0:0/96'),
  // NAT64 well-known prefix (RFC 6052): 64:ff9b::a.b.c.d.
  ipaddr.parseCIDR('64:ff9b::/96'),
];
/**
 * NAT64 local-use prefix (RFC 8215): the operator picks where the IPv4 address sits inside it,
 * so it cannot be read back; by definition it is not globally reachable, so it is refused.
 */
const localUseNat64 = ipaddr.parseCIDR('64:ff9b:1::/48');
const sixToFour = ipaddr.parseCIDR('2002::/16');
const teredo = ipaddr.parseCIDR('2001::/32');
/** Global unicast (RFC 4291): the rest of the IPv6 space is special-purpose or unassigned. */
const globalUnicast = ipaddr.parseCIDR('2000::/3');

const v4 = (bytes: number[]) => new ipaddr.IPv4(bytes);

function ipv4Refusal(address: ipaddr.IPv4, shown: string): string | null {
  const range = address.range();
  return range === 'unicast' ? null : `${shown} is not allowed (${range} address)`;
}

/**
 * Why connecting to this IP address is refused, or null when it is a public address. Anything
 * that is not an IP address is refused (a connection is always to an address).
 */
export function addressRefusal(address: string): string | null {
  if (net.isIP(address) === 0) return `${address} is not allowed (not an IP address)`;
  // ipaddr.js reads `::a.b.c.d` as `::ffff:a.b.c.d`; the WHATWG URL parser writes every IPv6
  // spelling the way the connection will see it (`::7f00:1`), so that is what gets classified.
  const canonical = net.isIPv6(address) ? new URL(`http://[${address}]/`).hostname.slice(1, -1) : address;
  const parsed = ipaddr.parse(canonical);
  if (parsed.kind() === 'ipv4') return ipv4Refusal(parsed as ipaddr.IPv4, address);
  const ip = parsed as ipaddr.IPv6;
  const bytes = ip.toByteArray();
  const range = ip.range();
  if (range === 'unspecified' || range === 'loopback') return `${address} is not allowed (${range} address)`;
  if (embedsIPv4InLast32Bits.some((cidr) => ip.match(cidr)))
    return ipv4Refusal(v4(bytes.slice(12, 16)), `${address} (IPv4 ${v4(bytes.slice(12, 16))})`);
  if (ip.match(localUseNat64)) return `${address} is not allowed (local-use NAT64 address)`;
  // 6to4 (RFC 3056): 2002:AABB:CCDD::/48 routes to the IPv4 address AA.BB.CC.DD.
  if (ip.match(sixToFour))
    return ipv4Refusal(v4(bytes.slice(2, 6)), `${address} (6to4 IPv4 ${v4(bytes.slice(2, 6))})`);
  // Teredo (RFC 4380): the server's IPv4 address in bits 32-63, the client's inverted in the
  // last 32; packets go to both, so both must be public.
  if (ip.match(teredo)) {
    const server = v4(bytes.slice(4, 8));
    const client = v4(bytes.slice(12, 16).map((b) => b ^ 0xff));
    return (
      ipv4Refusal(server, `${address} (Teredo server IPv4 ${server})`) ??
      ipv4Refusal(client, `${address} (Teredo client IPv4 ${client})`)
    );
  }
  if (range !== 'unicast') return `${address} is not allowed (${range} address)`;
  if (!ip.match(globalUnicast)) return `${address} is not allowed (not a global unicast address)`;
  return null;
}
