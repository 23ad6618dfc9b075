/**
 * The cluster's S3-compatible store: s3rver on the storage host's address (run inside its network
 * namespace by cluster.ts). Args: address port directory bucket.
 */
import S3rver from 's3rver';

const [address = '127.0.0.1', port = '4569', directory = '/tmp/twofold-cluster/s3', bucket = 'twofold'] =
  process.argv.slice(2);
const server = new S3rver({
  address,
  port: Number(port),
  silent: true,
  directory,
  configureBuckets: [{ name: bucket }],
});
await server.run();
console.log(`s3rver listening on http://${address}:${port}, bucket ${bucket}`);
process.on('SIGTERM', () => {
  void server.close().then(() => process.exit(0));
});
