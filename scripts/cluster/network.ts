import { execFileSync } from 'node:child_process';

/**
 * The cluster's network: one Linux bridge in the root namespace (the driver's own address is its
 * gateway) and one network namespace per host, each joined to the bridge by a veth pair. Every
 * host reaches the others only over these addresses, never over loopback.
 */
export const subnet = '10.231.0';
export const bridge = 'tfc0';
export const driverAddress = `${subnet}.1`;

export type Host = { name: string; ns: string; address: string };

export const hosts = {
  db: { name: 'db', ns: 'tfc-db', address: `${subnet}.2` },
  lb: { name: 'lb', ns: 'tfc-lb', address: `${subnet}.10` },
  app1: { name: 'app1', ns: 'tfc-app1', address: `${subnet}.11` },
  app2: { name: 'app2', ns: 'tfc-app2', address: `${subnet}.12` },
} satisfies Record<string, Host>;

export function run(command: string, args: string[], options: { quiet?: boolean } = {}): string {
  try {
    return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    if (options.quiet) return '';
    const e = error as { stderr?: string; message: string };
    throw new Error(`${command} ${args.join(' ')} failed: ${e.stderr?.trim() || e.message}`);
  }
}

const veth = (host: Host) => `tfc-${host.name}`;

/** Removes everything a previous run may have left (namespaces, veths, the bridge). */
export function teardownNetwork(): void {
  for (const host of Object.values(hosts)) {
    run('ip', ['netns', 'del', host.ns], { quiet: true });
    run('ip', ['link', 'del', veth(host)], { quiet: true });
  }
  run('ip', ['link', 'del', bridge], { quiet: true });
  for (let i = 0; i < 10; i++) {
    if (
      run('iptables', ['-D', 'FORWARD', '-i', bridge, '-o', bridge, '-j', 'ACCEPT'], { quiet: true }) === ''
    )
      break;
  }
}

export function setupNetwork(): void {
  teardownNetwork();
  run('ip', ['link', 'add', bridge, 'type', 'bridge']);
  run('ip', ['addr', 'add', `${driverAddress}/24`, 'dev', bridge]);
  run('ip', ['link', 'set', bridge, 'up']);
  for (const host of Object.values(hosts)) {
    run('ip', ['netns', 'add', host.ns]);
    run('ip', ['link', 'add', veth(host), 'type', 'veth', 'peer', 'name', 'eth0', 'netns', host.ns]);
    run('ip', ['link', 'set', veth(host), 'master', bridge, 'up']);
    run('ip', ['-n', host.ns, 'link', 'set', 'lo', 'up']);
    run('ip', ['-n', host.ns, 'addr', 'add', `${host.address}/24`, 'dev', 'eth0']);
    run('ip', ['-n', host.ns, 'link', 'set', 'eth0', 'up']);
  }
  // Docker (present on these machines) sets the FORWARD policy to DROP, and with br_netfilter
  // loaded bridged frames pass through it: let the cluster's own bridge through.
  run('iptables', ['-I', 'FORWARD', '-i', bridge, '-o', bridge, '-j', 'ACCEPT'], { quiet: true });
}

/** The argv that runs a command inside a host's namespace. */
export function inHost(host: Host, argv: string[]): [string, string[]] {
  return ['ip', ['netns', 'exec', host.ns, ...argv]];
}
