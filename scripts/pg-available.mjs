// Exits 0 when the PostgreSQL at DATABASE_URL (or the local default) answers within 3 s.
import pg from 'pg';

const url = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
try {
  await client.connect();
  await client.query('select 1');
  await client.end();
  process.exit(0);
} catch {
  process.exit(1);
}
