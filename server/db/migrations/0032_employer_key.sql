-- Employer identification (issue #31) compares what donors type with the catalogue's names and
-- aliases by one normalized key, computed in the database so PGlite and PostgreSQL give the same
-- answer and trigram indexes can hold it: lowercase, '&' as 'and', punctuation as spaces, a
-- leading 'The' and trailing legal suffixes (Inc, LLC, Ltd, Corp, Co, Company, GmbH, plc, …)
-- dropped. 'Acme Analytics, Inc.', 'The Acme Analytics Company' and 'acme analytics' are one key.
-- The catalogue keeps each name's and alias's key in a generated column (migration 0033).
CREATE OR REPLACE FUNCTION employer_key(t text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE RETURNS NULL ON NULL INPUT AS $$
  SELECT btrim(regexp_replace(regexp_replace(regexp_replace(regexp_replace(
    ' ' || lower(t) || ' ',
    '&', ' and ', 'g'),
    '[^a-z0-9]+', ' ', 'g'),
    '^ the ', ' '),
    '( (l l c|l l p|l p|p l c|inc|incorporated|llc|llp|lp|ltd|limited|corp|corporation|co|company|gmbh|plc|pllc|ag|sa|nv|bv|pty|srl|spa))+ $', ' '))
$$;
