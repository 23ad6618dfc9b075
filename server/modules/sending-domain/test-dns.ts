import dns2 from 'dns2';

const { Packet } = dns2;

/**
 * A real DNS server for tests (dns2, UDP): serves the TXT records of `zone` (name → records, each
 * record its character strings, as long records are published), NXDOMAIN for names without
 * records, SERVFAIL for names in `failing`. Tests change the zone between lookups.
 */
export async function startTestDns(port = 0) {
  const zone = new Map<string, string[][]>();
  const failing = new Set<string>();
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      const name = question?.name.toLowerCase() ?? '';
      if (failing.has(name)) response.header.rcode = 2;
      else if (!zone.has(name)) response.header.rcode = 3;
      else if (question?.type === Packet.TYPE.TXT)
        // dns2 encodes a plain record object (its types ask for a Resource instance).
        for (const strings of zone.get(name) ?? [])
          response.answers.push({
            name,
            type: Packet.TYPE.TXT,
            class: Packet.CLASS.IN,
            ttl: 60,
            data: strings,
          } as unknown as (typeof response.answers)[number]);
      send(response);
    },
  });
  await server.listen({ udp: { port, address: '127.0.0.1' } });
  const address = server.addresses().udp;
  return {
    zone,
    failing,
    /** `127.0.0.1:port`, for DNS_RESOLVER. */
    server: `127.0.0.1:${address?.port}`,
    /** Publishes one record, split into 255-byte strings as DNS carries long TXT records. */
    publish(name: string, value: string) {
      const strings: string[] = [];
      for (let at = 0; at < value.length; at += 255) strings.push(value.slice(at, at + 255));
      zone.set(name.toLowerCase(), [...(zone.get(name.toLowerCase()) ?? []), strings]);
    },
    close: () => server.close(),
  };
}
export type TestDns = Awaited<ReturnType<typeof startTestDns>>;
