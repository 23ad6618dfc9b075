-- Employer identification (issue #31) compares what donors type with the catalogue's names and
-- aliases by one normalized key, computed in the database so PGlite and PostgreSQL give the same
-- answer and trigram indexes can hold it: lowercase, '&' as 'and', punctuation as spaces, a
-- leading 'The' and trailing legal suffixes (Inc, LLC, Ltd, Corp, Co, Company, GmbH, plc, …)
-- dropped. 'Acme Analytics, Inc.', 'The Acme Analytics Company' and 'acme analytics' are one key.
CREATE OR REPLACE FUNCTION employer_key(t text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE RETURNS NULL ON NULL INPUT AS $$
  SELECT btrim(regexp_replace(regexp_replace(regexp_replace(regexp_replace(
    ' ' || lower(t) || ' ',
    '&', ' and ', 'g'),
    '[^a-z0-9]+', ' ', 'g'),
    '^ the ', ' '),
    '( (l l c|l l p|l p|p l c|inc|incorporated|llc|llp|lp|ltd|limited|corp|corporation|co|company|gmbh|plc|pllc|ag|sa|nv|bv|pty|srl|spa))+ $', ' '))
$$;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "companies_employer_key_idx" ON "companies" USING btree (employer_key("name"));
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "companies_employer_key_trgm_idx" ON "companies" USING gin (employer_key("name") gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "company_aliases_employer_key_idx" ON "company_aliases" USING btree (employer_key("alias"));
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "company_aliases_employer_key_trgm_idx" ON "company_aliases" USING gin (employer_key("alias") gin_trgm_ops);
